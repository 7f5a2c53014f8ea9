#pragma once
// Static (two-pass) rANS entropy coding of byte symbols, each coded under one of several
// contexts (Duda 2013, "Asymmetric numeral systems"; the byte-wise renormalising coder of
// Giesen's ryg_rans, 32-bit state). The encoder counts each context's symbols, scales the
// counts to frequencies summing to 2^15 (every symbol that occurs keeps at least 1), and
// codes the symbols last to first so that the decoder reads them first to last. Within a
// few tenths of a percent of the order-0 entropy per context; a context holding one symbol
// costs nothing. Deterministic: the same input gives the same bytes on every machine.
//
// Used by compact strategy files for their quantised probabilities
// (strategy_files/strategy_file.h, format version 3).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hulhe {

inline constexpr int kRansScaleBits = 15;
inline constexpr std::uint32_t kRansTotal = 1U << kRansScaleBits;

// Frequencies of the 256 byte values in one context; they sum to kRansTotal.
using RansFrequencies = std::array<std::uint16_t, 256>;

// Per context c, the frequencies of the symbols coded in it (contexts[i] < num_contexts).
std::vector<RansFrequencies> rans_model(std::span<const std::uint8_t> symbols,
                                        std::span<const std::uint8_t> contexts, int num_contexts);

// "" when every table sums to kRansTotal, else the reason.
std::string rans_check(const std::vector<RansFrequencies>& model);

// symbols[i] coded under model[contexts[i]]; every symbol must have a nonzero frequency in
// its context (std::invalid_argument otherwise).
std::vector<std::uint8_t> rans_encode(std::span<const std::uint8_t> symbols,
                                      std::span<const std::uint8_t> contexts,
                                      const std::vector<RansFrequencies>& model);

// Decodes out.size() symbols (out[i] under model[contexts[i]]) from `stream`. False when the
// stream is too short, too long, or does not end where the encoder began (damage).
bool rans_decode(std::span<const std::uint8_t> stream, std::span<const std::uint8_t> contexts,
                 const std::vector<RansFrequencies>& model, std::span<std::uint8_t> out);

// The same decoder one symbol at a time, for readers whose next context depends on the symbols
// decoded so far (compact strategy files skip information sets by their own earlier values).
class RansDecoder {
 public:
  // False when the model is not valid or the stream is shorter than the final state.
  bool start(std::span<const std::uint8_t> stream, const std::vector<RansFrequencies>& model);
  // The next symbol, coded under model[context]; false on damage (a context out of range, the
  // stream ended early).
  bool next(std::uint8_t context, std::uint8_t& symbol);
  // Whether the stream was read to its end and ends where the encoder began.
  bool finished() const { return at_ == stream_.size() && x_ == kStateLow; }

 private:
  static constexpr std::uint32_t kStateLow = 1U << 23;
  std::span<const std::uint8_t> stream_;
  const std::vector<RansFrequencies>* model_ = nullptr;
  std::vector<std::uint8_t> symbol_of_;  // per context: slot -> symbol
  std::vector<std::array<std::uint32_t, 257>> start_;
  std::size_t at_ = 0;
  std::uint32_t x_ = 0;
};

}  // namespace hulhe

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
// (strategies/strategy_file.h, format version 3).
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

}  // namespace hulhe

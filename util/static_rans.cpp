#include "util/static_rans.h"

#include <algorithm>
#include <stdexcept>

namespace hulhe {
namespace {

// The state stays in [kLow, kLow << 8) between symbols (ryg_rans' RANS_BYTE_L).
constexpr std::uint32_t kLow = 1U << 23;

// Counts scaled to sum exactly kRansTotal, each occurring symbol at least 1. Surplus or
// deficit goes to/from the most frequent symbols (ties: the lowest value), so the result is
// a function of the counts alone.
RansFrequencies normalise(const std::array<std::uint64_t, 256>& counts) {
  RansFrequencies f{};
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += c;
  if (total == 0) {
    f[0] = static_cast<std::uint16_t>(kRansTotal - 1);  // an unused context: any valid table
    f[1] = 1;
    return f;
  }
  // counts[s] * 2^15 fits 64 bits below 2^49 symbols.
  if (total >= (std::uint64_t{1} << 49))
    throw std::invalid_argument("rans_model: too many symbols");
  std::int64_t sum = 0;
  for (int s = 0; s < 256; ++s) {
    if (counts[s] == 0) continue;
    const std::uint64_t scaled = counts[s] * kRansTotal / total;
    f[s] = static_cast<std::uint16_t>(std::max<std::uint64_t>(1, scaled));
    sum += f[s];
  }
  while (sum != kRansTotal) {
    int best = -1;
    for (int s = 0; s < 256; ++s) {
      if (counts[s] == 0 || (sum > kRansTotal && f[s] <= 1)) continue;
      if (best < 0 || f[s] > f[best]) best = s;
    }
    if (sum < kRansTotal) {
      const std::int64_t add = kRansTotal - sum;
      f[best] = static_cast<std::uint16_t>(f[best] + add);
      sum += add;
    } else {
      --f[best];
      --sum;
    }
  }
  return f;
}

// Cumulative frequencies: start[s] = Σ_{t<s} f[t].
std::array<std::uint32_t, 257> starts(const RansFrequencies& f) {
  std::array<std::uint32_t, 257> start{};
  for (int s = 0; s < 256; ++s) start[s + 1] = start[s] + f[s];
  return start;
}

}  // namespace

std::vector<RansFrequencies> rans_model(std::span<const std::uint8_t> symbols,
                                        std::span<const std::uint8_t> contexts, int num_contexts) {
  if (symbols.size() != contexts.size())
    throw std::invalid_argument("rans_model: one context per symbol");
  std::vector<std::array<std::uint64_t, 256>> counts(num_contexts,
                                                     std::array<std::uint64_t, 256>{});
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    if (contexts[i] >= num_contexts)
      throw std::invalid_argument("rans_model: context out of range");
    ++counts[contexts[i]][symbols[i]];
  }
  std::vector<RansFrequencies> model;
  for (const auto& c : counts) model.push_back(normalise(c));
  return model;
}

std::string rans_check(const std::vector<RansFrequencies>& model) {
  for (const RansFrequencies& f : model) {
    std::uint32_t sum = 0;
    for (const std::uint16_t x : f) sum += x;
    if (sum != kRansTotal) return "a frequency table does not sum to 2^15";
  }
  return "";
}

std::vector<std::uint8_t> rans_encode(std::span<const std::uint8_t> symbols,
                                      std::span<const std::uint8_t> contexts,
                                      const std::vector<RansFrequencies>& model) {
  if (symbols.size() != contexts.size())
    throw std::invalid_argument("rans_encode: one context per symbol");
  std::vector<std::array<std::uint32_t, 257>> start;
  for (const RansFrequencies& f : model) start.push_back(starts(f));
  // A symbol of frequency 1 costs 15 bits: at most 2 bytes a symbol, plus the final state.
  std::vector<std::uint8_t> buffer(symbols.size() * 2 + 4);
  std::size_t at = buffer.size();
  std::uint32_t x = kLow;
  for (std::size_t i = symbols.size(); i-- > 0;) {
    if (contexts[i] >= model.size()) throw std::invalid_argument("rans_encode: bad context");
    const std::uint32_t freq = model[contexts[i]][symbols[i]];
    if (freq == 0) throw std::invalid_argument("rans_encode: a symbol of frequency 0");
    const std::uint32_t x_max = ((kLow >> kRansScaleBits) << 8) * freq;
    while (x >= x_max) {
      buffer[--at] = static_cast<std::uint8_t>(x & 0xff);
      x >>= 8;
    }
    x = ((x / freq) << kRansScaleBits) + (x % freq) + start[contexts[i]][symbols[i]];
  }
  // The final state, most significant byte first (the decoder reads it first).
  for (int b = 0; b < 4; ++b) buffer[--at] = static_cast<std::uint8_t>((x >> (8 * b)) & 0xff);
  return {buffer.begin() + static_cast<std::ptrdiff_t>(at), buffer.end()};
}

bool RansDecoder::start(std::span<const std::uint8_t> stream,
                        const std::vector<RansFrequencies>& model) {
  if (stream.size() < 4 || !rans_check(model).empty()) return false;
  static_assert(kStateLow == kLow);
  stream_ = stream;
  model_ = &model;
  // Per context: slot -> symbol for the kRansTotal slots.
  symbol_of_.assign(model.size() * kRansTotal, 0);
  start_.clear();
  for (std::size_t c = 0; c < model.size(); ++c) {
    start_.push_back(starts(model[c]));
    for (int s = 0; s < 256; ++s)
      std::fill(symbol_of_.begin() + static_cast<std::ptrdiff_t>(c * kRansTotal + start_[c][s]),
                symbol_of_.begin() + static_cast<std::ptrdiff_t>(c * kRansTotal + start_[c][s + 1]),
                static_cast<std::uint8_t>(s));
  }
  at_ = 0;
  x_ = 0;
  for (int b = 3; b >= 0; --b) x_ |= static_cast<std::uint32_t>(stream_[at_++]) << (8 * b);
  return true;
}

bool RansDecoder::next(std::uint8_t context, std::uint8_t& symbol) {
  if (context >= model_->size() || x_ < kLow) return false;
  const std::uint32_t slot = x_ & (kRansTotal - 1);
  const std::uint8_t s = symbol_of_[context * kRansTotal + slot];
  symbol = s;
  x_ = (*model_)[context][s] * (x_ >> kRansScaleBits) + slot - start_[context][s];
  while (x_ < kLow) {
    if (at_ == stream_.size()) return false;
    x_ = (x_ << 8) | stream_[at_++];
  }
  return true;
}

bool rans_decode(std::span<const std::uint8_t> stream, std::span<const std::uint8_t> contexts,
                 const std::vector<RansFrequencies>& model, std::span<std::uint8_t> out) {
  if (contexts.size() != out.size()) return false;
  RansDecoder decoder;
  if (!decoder.start(stream, model)) return false;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!decoder.next(contexts[i], out[i])) return false;
  return decoder.finished();
}

}  // namespace hulhe

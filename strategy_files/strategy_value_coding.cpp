#include "strategy_files/strategy_value_coding.h"

#include <cereal/types/vector.hpp>
#include <map>
#include <tuple>

#include "strategy_files/strategy_file.h"
#include "util/static_rans.h"

namespace hulhe {
namespace strategy_file_internal {

OwnPredecessors own_predecessors(const BettingTree& tree) {
  OwnPredecessors out(static_cast<std::size_t>(tree.game().num_rounds));
  for (int r = 0; r < tree.game().num_rounds; ++r)
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const std::int32_t at = tree.decision_node(r, n);
      OwnPredecessor p;
      for (std::int32_t child = at, up = tree.node(at).parent; up >= 0 && tree.node(up).round == r;
           child = up, up = tree.node(up).parent) {
        const BettingNode& u = tree.node(up);
        if (u.player != tree.node(at).player) continue;
        p.node = u.id_in_round;
        while (u.child[p.slot] != child) ++p.slot;
        break;
      }
      if (p.node >= n) throw std::logic_error("decision ids are not in depth-first order");
      out[r].push_back(p);
    }
  return out;
}

ValueContexts value_contexts(const Layout& layout, int rounds, int bits, bool conditional) {
  const int bin_bits = conditional ? std::min(bits, 4) : 0;
  std::map<std::tuple<int, int, int>, int> number;
  ValueContexts out;
  out.shift = bits - bin_bits;
  out.id.resize(static_cast<std::size_t>(rounds));
  for (int r = 0; r < rounds; ++r)
    for (std::size_t n = 0; n < layout.node_offset[r].size(); ++n) {
      const int actions = layout.num_actions[r][n];
      std::array<std::uint8_t, kMaxQuantizedActions> id{};
      for (int a = 0; a + 1 < actions; ++a) {
        const auto [it, fresh] = number.try_emplace({r, actions, a}, out.count);
        if (fresh) out.count += a == 0 ? 1 : 1 << bin_bits;
        if (out.count > 255) throw std::invalid_argument("more than 255 value contexts");
        id[a] = static_cast<std::uint8_t>(it->second);
      }
      out.id[r].push_back(id);
    }
  return out;
}
void write_coded_values(cereal::PortableBinaryOutputArchive& ar,
                        const std::vector<std::uint8_t>& values, const Layout& layout,
                        const OwnPredecessors& predecessors, int rounds, int bits) {
  const ValueContexts ids = value_contexts(layout, rounds, bits, true);
  std::vector<std::uint8_t> stored, contexts;
  for_each_information_set_reached(
      layout, predecessors, values, true,
      [&](int r, std::int32_t n, std::int32_t, std::int64_t off, int actions, bool reached) {
        if (!reached) return true;
        const std::uint8_t* q = values.data() + off;
        for (int a = 0; a + 1 < actions; ++a) {
          stored.push_back(q[a]);
          contexts.push_back(ids.of(r, n, a, a == 0 ? 0 : q[a - 1]));
        }
        return true;
      });
  const std::vector<RansFrequencies> model = rans_model(stored, contexts, ids.count);
  std::vector<std::uint16_t> frequencies;
  for (const RansFrequencies& f : model) frequencies.insert(frequencies.end(), f.begin(), f.end());
  ar(frequencies, rans_encode(stored, contexts, model));
}
std::string decode_coded_values(const std::vector<std::uint16_t>& frequencies,
                                const std::vector<std::uint8_t>& coded, const Layout& layout,
                                const OwnPredecessors& predecessors, int rounds, int bits,
                                bool conditional, bool prune, std::vector<std::uint8_t>& values) {
  const std::uint32_t total = (1U << bits) - 1;
  const ValueContexts ids = value_contexts(layout, rounds, bits, conditional);
  std::vector<RansFrequencies> model(static_cast<std::size_t>(ids.count));
  if (frequencies.size() != model.size() * 256)
    return ("corrupt (entropy model of " + std::to_string(frequencies.size()) +
            " frequencies, the layout has " + std::to_string(ids.count) + " contexts)");
  for (std::size_t i = 0; i < frequencies.size(); ++i) model[i / 256][i % 256] = frequencies[i];
  RansDecoder decoder;
  if (!decoder.start(coded, model))
    return "corrupt (the entropy-coded probabilities do not decode)";
  bool over = false;
  values.assign(static_cast<std::size_t>(layout.size), 0);
  const bool decoded = for_each_information_set_reached(
      layout, predecessors, values, prune,
      [&](int r, std::int32_t n, std::int32_t, std::int64_t off, int actions, bool reached) {
        std::uint8_t* q = values.data() + off;
        if (!reached) {
          fill_unreached(q, actions, total);
          return true;
        }
        std::uint32_t sum = 0;
        for (int a = 0; a < actions - 1; ++a) {
          if (!decoder.next(ids.of(r, n, a, a == 0 ? 0 : q[a - 1]), q[a])) return false;
          sum += q[a];
        }
        over = sum > total;
        q[actions - 1] = static_cast<std::uint8_t>(total - sum);
        return !over;
      });
  if (over)
    return ("corrupt (an information set's stored probabilities exceed " + std::to_string(total) +
            "/" + std::to_string(total) + ")");
  if (!decoded || !decoder.finished())
    return "corrupt (the entropy-coded probabilities do not decode)";
  return "";
}

void write_coded_table(cereal::PortableBinaryOutputArchive& ar, const PackedRoundBuckets& t) {
  if (t.num_buckets > kMaxCodedBuckets)
    throw InputError("a compact file codes at most " + std::to_string(kMaxCodedBuckets) +
                     " buckets a round, not " + std::to_string(t.num_buckets));
  const int contexts = 1 + (t.num_buckets - 1) / 256 + 1;
  std::vector<std::uint8_t> symbols(static_cast<std::size_t>(2 * t.num_hands));
  std::vector<std::uint8_t> context(symbols.size());
  for (std::int64_t i = 0; i < t.num_hands; ++i) {
    const std::int32_t b = t[i];
    symbols[2 * i] = static_cast<std::uint8_t>(b >> 8);
    symbols[2 * i + 1] = static_cast<std::uint8_t>(b & 0xff);
    context[2 * i + 1] = static_cast<std::uint8_t>(1 + (b >> 8));
  }
  const std::vector<RansFrequencies> model = rans_model(symbols, context, contexts);
  std::vector<std::uint16_t> frequencies;
  for (const RansFrequencies& f : model) frequencies.insert(frequencies.end(), f.begin(), f.end());
  ar(t.num_buckets, t.num_hands, frequencies, rans_encode(symbols, context, model));
}

PackedRoundBuckets read_coded_table(BoundedInputArchive& ar, std::int64_t hands) {
  std::int32_t num_buckets = 0;
  std::int64_t num_hands = 0;
  std::vector<std::uint16_t> frequencies;
  std::vector<std::uint8_t> stream;
  ar(num_buckets, num_hands, frequencies, stream);
  if (num_hands != hands || num_buckets < 1 || num_buckets > kMaxCodedBuckets)
    throw std::invalid_argument("a coded bucket array of " + std::to_string(num_hands) +
                                " hands and " + std::to_string(num_buckets) + " buckets");
  std::vector<RansFrequencies> model(static_cast<std::size_t>(1 + (num_buckets - 1) / 256 + 1));
  if (frequencies.size() != model.size() * 256)
    throw std::invalid_argument("a coded bucket array's model has the wrong size");
  for (std::size_t i = 0; i < frequencies.size(); ++i) model[i / 256][i % 256] = frequencies[i];
  RansDecoder decoder;
  if (!decoder.start(stream, model))
    throw std::invalid_argument("a coded bucket array does not decode");
  PackedRoundBuckets t =
      PackedRoundBuckets::pack(num_hands, num_buckets, [&](std::int64_t) -> std::int32_t {
        std::uint8_t high = 0, low = 0;
        if (!decoder.next(0, high) || high >= model.size() - 1 ||
            !decoder.next(static_cast<std::uint8_t>(1 + high), low))
          throw std::invalid_argument("a coded bucket array does not decode");
        return (std::int32_t{high} << 8) | low;  // pack() refuses one not below num_buckets
      });
  if (!decoder.finished()) throw std::invalid_argument("a coded bucket array does not decode");
  return t;
}
}  // namespace strategy_file_internal

using namespace strategy_file_internal;

void quantize_probabilities(std::span<const double> p, std::span<std::uint8_t> out) {
  quantize_to<std::uint8_t>(p, out, 255);
}

void quantize_probabilities(std::span<const double> p, std::span<std::uint8_t> out, int bits) {
  if (bits < 2 || bits > 8) throw std::invalid_argument("quantize_probabilities: 2 to 8 bits");
  quantize_to<std::uint8_t>(p, out, (1 << bits) - 1);
}

void quantize_probabilities(std::span<const double> p, std::span<std::uint16_t> out) {
  quantize_to<std::uint16_t>(p, out, 65535);
}

void quantization_round_trip(std::span<double> p, int bits) {
  const std::size_t n = p.size();
  if (bits <= 8) {
    std::array<std::uint8_t, 16> q{};
    quantize_probabilities(p, std::span<std::uint8_t>(q.data(), n), bits);
    const double scale = 1.0 / static_cast<double>((1 << bits) - 1);
    for (std::size_t a = 0; a < n; ++a) p[a] = q[a] * scale;
  } else {
    std::array<std::uint16_t, 16> q{};
    quantize_probabilities(p, std::span<std::uint16_t>(q.data(), n));
    for (std::size_t a = 0; a < n; ++a) p[a] = q[a] * (1.0 / 65535.0);
  }
}

}  // namespace hulhe

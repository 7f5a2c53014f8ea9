#include "strategies/strategy_file.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "abstraction/bucket_map.h"
#include "abstraction/clustered_abstraction.h"
#include "abstraction/lossless_abstraction.h"
#include "game/hand_indexer.h"
#include "strategies/compact_bucket_abstraction.h"
#include "strategies/packed_bucket_abstraction.h"
#include "util/bounded_input_archive.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/printable_text.h"
#include "util/static_rans.h"

namespace hulhe {
namespace {

constexpr char kMagic[8] = {'H', 'U', 'L', 'H', 'E', 'S', 'T', 'R'};
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 8 + 8 + 8 + 8 + 4;
constexpr std::size_t kMaxQuantizedActions = 16;

struct Header {
  std::uint32_t version = kStrategyFileVersion;
  std::uint64_t game_hash = 0;
  std::uint64_t checkpoint_hash = 0;
  std::uint64_t body_size = 0;
  std::uint64_t body_checksum = 0;
  std::uint64_t abstraction_hash = 0;
  std::uint32_t bits = 8;
};

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(const std::string& in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

// Offsets of information sets in the tables' order: round, node, bucket, action.
struct Layout {
  std::vector<std::vector<std::int64_t>> node_offset;
  std::vector<std::vector<std::uint8_t>> num_actions;
  std::vector<std::int32_t> buckets;
  std::int64_t size = 0;

  // Calls visit(round, node, bucket, offset of its first value, actions) for every
  // information set in the stored order (round, node, bucket); stops early when visit
  // returns false. Returns whether it went through all of them.
  template <typename Visit>
  bool for_each_information_set(Visit&& visit) const {
    for (std::size_t r = 0; r < node_offset.size(); ++r)
      for (std::size_t n = 0; n < node_offset[r].size(); ++n) {
        const int actions = num_actions[r][n];
        for (std::int32_t b = 0; b < buckets[r]; ++b)
          if (!visit(static_cast<int>(r), static_cast<std::int32_t>(n), b,
                     node_offset[r][n] + static_cast<std::int64_t>(b) * actions, actions))
            return false;
      }
    return true;
  }
};

Layout make_layout(const BettingTree& tree, const CardAbstraction& abstraction) {
  Layout layout;
  const int rounds = tree.game().num_rounds;
  layout.node_offset.resize(rounds);
  layout.num_actions.resize(rounds);
  for (int r = 0; r < rounds; ++r) {
    layout.buckets.push_back(abstraction.num_buckets(r));
    for (std::int32_t n = 0; n < tree.num_decision_nodes(r); ++n) {
      const int actions = tree.node(tree.decision_node(r, n)).num_actions;
      layout.node_offset[r].push_back(layout.size);
      layout.num_actions[r].push_back(static_cast<std::uint8_t>(actions));
      layout.size += static_cast<std::int64_t>(abstraction.num_buckets(r)) * actions;
    }
  }
  return layout;
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw InputError("strategy file " + path + ": " + why);
}

template <class Archive>
void serialize_packed(Archive& ar, PackedRoundBuckets& r) {
  ar(r.num_buckets, r.num_hands, r.width, r.bytes);
}

// Largest remainder into values summing to `total` (2^bits - 1).
template <typename T>
void quantize_to(std::span<const double> p, std::span<T> out, int total) {
  const std::size_t n = p.size();
  if (n == 0 || n > kMaxQuantizedActions || out.size() != n)
    throw std::invalid_argument("quantize_probabilities: 1 to 16 actions, matching sizes");
  double sum = 0.0;
  for (double x : p) sum += x > 0.0 ? x : 0.0;
  double scaled[kMaxQuantizedActions];
  std::size_t order[kMaxQuantizedActions];
  int assigned = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const double share = sum > 0.0 ? std::max(p[a], 0.0) / sum : 1.0 / static_cast<double>(n);
    scaled[a] = share * total;
    const double whole = std::min(std::floor(scaled[a]), static_cast<double>(total));
    out[a] = static_cast<T>(whole);
    scaled[a] -= whole;  // the remainder
    assigned += out[a];
    order[a] = a;
  }
  // Hand the missing units to the largest remainders; stable sort breaks ties by slot.
  std::stable_sort(order, order + n,
                   [&](std::size_t x, std::size_t y) { return scaled[x] > scaled[y]; });
  for (std::size_t k = 0; assigned < total; k = (k + 1) % n, ++assigned) ++out[order[k]];
}

template <typename T>
std::vector<T> quantize_policy(const Policy& policy, const Layout& layout, int total) {
  std::vector<T> values(static_cast<std::size_t>(layout.size));
  double probabilities[kNumActionKinds];
  layout.for_each_information_set(
      [&](int r, std::int32_t n, std::int32_t b, std::int64_t off, int actions) {
        policy.action_probabilities(r, n, b, std::span<double>(probabilities, actions));
        quantize_to<T>(std::span<const double>(probabilities, actions),
                       std::span<T>(values.data() + off, actions), total);
        return true;
      });
  return values;
}

// Every information set's values sum to `total`.
template <typename T>
bool sums_are_exact(const std::vector<T>& values, const Layout& layout, std::uint32_t total) {
  return layout.for_each_information_set(
      [&](int, std::int32_t, std::int32_t, std::int64_t off, int actions) {
        const T* q = values.data() + off;
        return std::accumulate(q, q + actions, std::uint32_t{0}) == total;
      });
}

}  // namespace

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

namespace {

// Per decision node of a round, the same player's previous decision in that round and the
// slot it took towards the node (node -1: none). Decision ids number a round's nodes
// depth-first, so that decision comes earlier in the stored order (checked).
struct OwnPredecessor {
  std::int32_t node = -1;
  std::uint8_t slot = 0;
};
using OwnPredecessors = std::vector<std::vector<OwnPredecessor>>;  // [round][node]

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

// Calls visit(round, node, bucket, offset, actions, reached) for every information set in the
// stored order, `reached` false where the strategy's own earlier action in the round has
// value 0 (strategy_file.h; always true for format version 3, `prune` false). It reads
// `values` of earlier sets only, so a reader may fill each set in visit. Stops early when
// visit returns false; returns whether it went through.
template <typename T, typename Visit>
bool for_each_information_set_reached(const Layout& layout, const OwnPredecessors& predecessors,
                                      const std::vector<T>& values, bool prune, Visit&& visit) {
  std::vector<std::uint8_t> reached;  // [node * buckets + bucket] of the current round
  for (std::size_t r = 0; r < layout.node_offset.size(); ++r) {
    const std::int64_t buckets = layout.buckets[r];
    reached.assign(layout.node_offset[r].size() * static_cast<std::size_t>(buckets), 0);
    for (std::size_t n = 0; n < layout.node_offset[r].size(); ++n) {
      const OwnPredecessor p = predecessors[r][n];
      const int actions = layout.num_actions[r][n];
      for (std::int32_t b = 0; b < buckets; ++b) {
        const bool here =
            !prune || p.node < 0 ||
            (reached[static_cast<std::size_t>(p.node * buckets + b)] != 0 &&
             values[static_cast<std::size_t>(layout.node_offset[r][p.node] +
                                             b * layout.num_actions[r][p.node] + p.slot)] != 0);
        reached[n * static_cast<std::size_t>(buckets) + static_cast<std::size_t>(b)] = here;
        if (!visit(static_cast<int>(r), static_cast<std::int32_t>(n), b,
                   layout.node_offset[r][n] + static_cast<std::int64_t>(b) * actions, actions,
                   here))
          return false;
      }
    }
  }
  return true;
}

// The values a compact file stores: every reached information set's but the last (which is Q
// minus the others).
template <typename T>
std::vector<T> reached_values_without_last(const std::vector<T>& values, const Layout& layout,
                                           const OwnPredecessors& predecessors) {
  std::vector<T> out;
  for_each_information_set_reached(
      layout, predecessors, values, true,
      [&](int, std::int32_t, std::int32_t, std::int64_t off, int actions, bool reached) {
        if (reached) out.insert(out.end(), values.data() + off, values.data() + off + actions - 1);
        return true;
      });
  return out;
}

// Fills a set the strategy never reaches: the uniform distribution, quantised.
template <typename T>
void fill_unreached(T* q, int actions, std::uint32_t total) {
  const double uniform[kMaxQuantizedActions] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  quantize_to<T>(std::span<const double>(uniform, actions), std::span<T>(q, actions),
                 static_cast<int>(total));
}

// The inverse of reached_values_without_last for plainly stored values. False when the sizes
// disagree or the stored values of a set exceed `total`.
template <typename T>
bool with_unreached_and_last_values(const std::vector<T>& stored, const Layout& layout,
                                    const OwnPredecessors& predecessors, bool prune,
                                    std::uint32_t total, std::vector<T>& values) {
  values.assign(static_cast<std::size_t>(layout.size), 0);
  std::size_t in = 0;
  const bool ok = for_each_information_set_reached(
      layout, predecessors, values, prune,
      [&](int, std::int32_t, std::int32_t, std::int64_t off, int actions, bool reached) {
        T* q = values.data() + off;
        if (!reached) {
          fill_unreached(q, actions, total);
          return true;
        }
        if (stored.size() - in < static_cast<std::size_t>(actions - 1)) return false;
        std::uint32_t sum = 0;
        for (int a = 0; a < actions - 1; ++a) sum += q[a] = stored[in++];
        if (sum > total) return false;
        q[actions - 1] = static_cast<T>(total - sum);
        return true;
      });
  return ok && in == stored.size();
}

// The entropy coder's context of each stored value: (round, actions at the node, slot), and
// in format version 4 for every slot after the first also the set's previous value, by its
// top min(bits, 4) bits (a set's values sum to Q, so each bounds the next). Numbered by first
// appearance in the stored order.
struct ValueContexts {
  // [round][node][slot]: the context of the slot's first bin
  std::vector<std::vector<std::array<std::uint8_t, kMaxQuantizedActions>>> id;
  int count = 0;
  int shift = 8;  // the previous value's bin: value >> shift

  std::uint8_t of(int r, std::int32_t n, int slot, std::uint32_t previous) const {
    return slot == 0 ? id[r][n][0]
                     : static_cast<std::uint8_t>(id[r][n][slot] + (previous >> shift));
  }
};

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

// Compact files of 8 bits or fewer: the stored values entropy-coded (util/static_rans.h), the
// model as 256 frequencies a context.
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

// Format version 4's bucket arrays: each hand's bucket as two bytes, the high one under one
// context and the low one under a context per high byte (util/static_rans.h), so an array costs
// about its bucket distribution's entropy instead of ceil(log2 k) bits a hand (k-means
// buckets are uneven). Up to kMaxCodedBuckets buckets.
constexpr std::int32_t kMaxCodedBuckets = 254 * 256;

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

// Reads what write_coded_table wrote for a round of `hands` hands; std::invalid_argument with
// the reason for damage.
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

void serialize_compact(cereal::PortableBinaryOutputArchive& ar,
                       const CompactBucketAbstraction& compact) {
  ar(static_cast<std::uint32_t>(compact.tables().size()));
  for (const PackedRoundBuckets& r : compact.tables()) write_coded_table(ar, r);
  const OchsRiverModel& m = compact.river().model();
  ar(m.clusters, m.preflop_cluster, m.num_buckets, m.centres);
  ar(compact.exceptions().index, compact.exceptions().bucket);
}

// The writer of both formats: `compact` null writes version 2 (the abstraction lossless or
// embedded as four packed arrays), else version 3 carrying `compact`.
void write_file(const std::string& path, const Policy& policy,
                const CompactBucketAbstraction* compact, const StrategyFileMetadata& metadata) {
  const BettingTree& tree = policy.tree();
  const CardAbstraction& abstraction = policy.abstraction();
  if (!supported_probability_bits(metadata.bits))
    fail(path, "bits per probability must be 2 to 8 or 16, not " + std::to_string(metadata.bits));
  const int total = (1 << metadata.bits) - 1;
  const Layout layout = make_layout(tree, abstraction);
  const int rounds = tree.game().num_rounds;

  // The abstraction travels with the strategy: lossless ones are rebuilt from the game,
  // bucket maps are embedded as packed arrays, or as a compact abstraction.
  AbstractionDescriptor descriptor{"lossless", abstraction.hash(), abstraction.describe(),
                                   metadata.bucket_map};
  std::vector<PackedRoundBuckets> packed;
  if (compact != nullptr) {
    descriptor.kind = "compact";
    if (compact->hash() != abstraction.hash() || rounds != compact->num_rounds() ||
        abstraction.num_rounds() != compact->num_rounds())
      fail(path, "the compact abstraction " + compact->describe() + " does not stand for " +
                     abstraction.describe());
    for (int r = 0; r < rounds; ++r)
      if (compact->num_buckets(r) != abstraction.num_buckets(r))
        fail(path, "the compact abstraction's round " + std::to_string(r) + " has " +
                       std::to_string(compact->num_buckets(r)) + " buckets, the strategy's " +
                       std::to_string(abstraction.num_buckets(r)));
  } else if (const auto* p = dynamic_cast<const PackedBucketAbstraction*>(&abstraction)) {
    descriptor.kind = "buckets";
    packed = p->rounds();
  } else if (const auto* c = dynamic_cast<const ClusteredAbstraction*>(&abstraction)) {
    descriptor.kind = "buckets";
    packed = PackedBucketAbstraction::from(*c).rounds();
  } else if (dynamic_cast<const LosslessAbstraction*>(&abstraction) == nullptr) {
    fail(path, "cannot embed abstraction " + abstraction.describe() +
                   " (neither lossless nor a bucket map)");
  }

  std::ostringstream body_stream;
  {
    cereal::PortableBinaryOutputArchive ar(body_stream);
    ar(tree.game().to_acpc_string(), tree.game().name, descriptor, metadata.algorithm,
       metadata.iterations, layout.buckets);
    if (compact == nullptr && metadata.bits <= 8)
      ar(quantize_policy<std::uint8_t>(policy, layout, total));
    else if (compact == nullptr)
      ar(quantize_policy<std::uint16_t>(policy, layout, total));
    else if (metadata.bits <= 8)
      write_coded_values(ar, quantize_policy<std::uint8_t>(policy, layout, total), layout,
                         own_predecessors(tree), rounds, metadata.bits);
    else
      ar(reached_values_without_last(quantize_policy<std::uint16_t>(policy, layout, total), layout,
                                     own_predecessors(tree)));
    if (compact != nullptr) {
      serialize_compact(ar, *compact);
    } else if (descriptor.kind == "buckets") {
      ar(static_cast<std::uint32_t>(packed.size()));
      for (PackedRoundBuckets& r : packed) serialize_packed(ar, r);
    }
  }
  const std::string body = std::move(body_stream).str();

  std::string bytes(kMagic, sizeof kMagic);
  put_le(bytes, compact != nullptr ? kCompactStrategyFileVersion : kStrategyFileVersion, 4);
  put_le(bytes, tree.game().hash(), 8);
  put_le(bytes, metadata.checkpoint_hash, 8);
  put_le(bytes, body.size(), 8);
  put_le(bytes, checksum64(body.data(), body.size()), 8);
  put_le(bytes, abstraction.hash(), 8);
  put_le(bytes, static_cast<std::uint64_t>(metadata.bits), 4);

  // Temporary file, fsync, rename, folder fsync (util/output_file.h): a crash never leaves
  // a half-written file under `path`.
  write_output_file(path, "strategy file", {bytes, body});
}

}  // namespace

void write_strategy_file(const std::string& path, const Policy& policy,
                         const StrategyFileMetadata& metadata) {
  write_file(path, policy, dynamic_cast<const CompactBucketAbstraction*>(&policy.abstraction()),
             metadata);
}

void write_compact_strategy_file(const std::string& path, const Policy& policy,
                                 const CompactBucketAbstraction& compact,
                                 const StrategyFileMetadata& metadata) {
  write_file(path, policy, &compact, metadata);
}

StrategyFile StrategyFile::read(const std::string& path) {
  return read_impl(path, nullptr);
}

StrategyFile StrategyFile::read(const std::string& path,
                                std::shared_ptr<const CardAbstraction> abstraction) {
  if (abstraction == nullptr) fail(path, "no card abstraction given");
  return read_impl(path, std::move(abstraction));
}

StrategyFile StrategyFile::read_impl(const std::string& path,
                                     std::shared_ptr<const CardAbstraction> abstraction) {
  // Regular files only (a directory, device or fifo is refused by name, never read).
  const std::string bytes = read_input_file(path, "strategy file", std::uint64_t{1} << 40);
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail(path, "not a hulhe strategy file (bad magic)");
  if (bytes.size() < 12) fail(path, "truncated header");
  Header header;
  header.version = static_cast<std::uint32_t>(get_le(bytes, 8, 4));
  if (header.version != kStrategyFileVersion && header.version != kCompactStrategyFileVersion3 &&
      header.version != kCompactStrategyFileVersion)
    fail(path, "format version " + std::to_string(header.version) + ", this hulhe reads versions " +
                   std::to_string(kStrategyFileVersion) + " to " +
                   std::to_string(kCompactStrategyFileVersion) +
                   " (export it again with this hulhe)");
  const bool compact = header.version != kStrategyFileVersion;
  // Version 3 (the compact files before version 4) stores every information set, each value
  // under its (round, actions, slot) context alone.
  const bool version4 = header.version == kCompactStrategyFileVersion;
  if (bytes.size() < kHeaderSize) fail(path, "truncated header");
  header.game_hash = get_le(bytes, 12, 8);
  header.checkpoint_hash = get_le(bytes, 20, 8);
  header.body_size = get_le(bytes, 28, 8);
  header.body_checksum = get_le(bytes, 36, 8);
  header.abstraction_hash = get_le(bytes, 44, 8);
  header.bits = static_cast<std::uint32_t>(get_le(bytes, 52, 4));
  if (!supported_probability_bits(static_cast<int>(header.bits)))
    fail(path, "corrupt header (" + std::to_string(header.bits) + " bits per probability)");
  if (bytes.size() - kHeaderSize < header.body_size)
    fail(path, "truncated (" + std::to_string(bytes.size()) + " bytes, header promises " +
                   std::to_string(kHeaderSize + header.body_size) + ")");
  if (bytes.size() - kHeaderSize > header.body_size)
    fail(path, "corrupt (trailing bytes after the body)");
  const char* body = bytes.data() + kHeaderSize;
  if (checksum64(body, header.body_size) != header.body_checksum)
    fail(path, "corrupt (body checksum mismatch)");

  StrategyFile file;
  file.path_ = path;
  file.bits_ = static_cast<int>(header.bits);
  file.scale_ = 1.0 / static_cast<double>(file.quantum_total());
  file.metadata_.checkpoint_hash = header.checkpoint_hash;
  file.metadata_.bits = file.bits_;
  file.metadata_.compact = compact;
  std::string game_text, game_name;
  std::vector<std::int32_t> buckets;
  std::vector<PackedRoundBuckets> packed;
  // Compact files: values without each information set's last, and the compact abstraction.
  std::vector<std::uint16_t> frequencies;  // 8-bit: the entropy coder's model and stream
  std::vector<std::uint8_t> coded;
  std::vector<std::uint16_t> stored16;
  OchsRiverModel river;
  RiverExceptions exceptions;
  try {
    // Every length prefix is checked against the bytes that remain: a crafted body cannot
    // make the reader allocate more than the file's size.
    BoundedInputArchive ar(std::string_view(body, header.body_size), "strategy file " + path);
    ar(game_text, game_name, file.descriptor_, file.metadata_.algorithm, file.metadata_.iterations,
       buckets);
    if ((file.descriptor_.kind == "compact") != compact)
      fail(path, "corrupt (abstraction kind '" + printable(file.descriptor_.kind) +
                     "' in a format version " + std::to_string(header.version) + " file)");
    if (compact && file.bits_ <= 8)
      ar(frequencies, coded);
    else if (file.bits_ <= 8)
      ar(file.values8_);
    else
      ar(compact ? stored16 : file.values16_);
    if (compact) {
      std::uint32_t tables = 0;
      ar(tables);
      if (tables != 3) fail(path, "corrupt (a compact file keeps 3 bucket arrays)");
      packed.resize(tables);
      for (std::uint32_t r = 0; r < tables; ++r) {
        if (version4)
          packed[r] =
              read_coded_table(ar, static_cast<std::int64_t>(HandIndexer::holdem(r).size()));
        else
          serialize_packed(ar, packed[r]);
      }
      ar(river.clusters, river.preflop_cluster, river.num_buckets, river.centres);
      ar(exceptions.index, exceptions.bucket);
    } else if (file.descriptor_.kind == "buckets") {
      std::uint32_t rounds = 0;
      ar(rounds);
      if (rounds > kMaxRounds) fail(path, "corrupt (embedded bucket arrays)");
      packed.resize(rounds);
      for (PackedRoundBuckets& r : packed) serialize_packed(ar, r);
    }
    if (ar.remaining() != 0) fail(path, "corrupt (bytes after the strategy)");
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt body: ") + e.what());
  }
  // Every string of the body is checked against what it may be (the checksum only shows that
  // the body is what some writer wrote); messages show the offending bytes escaped.
  if (file.descriptor_.kind != "lossless" && file.descriptor_.kind != "buckets" &&
      file.descriptor_.kind != "compact")
    fail(path, "unknown abstraction kind '" + printable(file.descriptor_.kind) + "'");
  const std::pair<const char*, const std::string*> fields[] = {
      {"game name", &game_name},
      {"algorithm", &file.metadata_.algorithm},
      {"abstraction description", &file.descriptor_.description},
      {"bucket-map path", &file.descriptor_.bucket_map}};
  for (const auto& [what, text] : fields)
    if (!is_plain_line(*text, 4096))
      fail(path, std::string("corrupt: ") + what + " is not a plain line of text '" +
                     printable(*text) + "'");
  file.metadata_.abstraction_kind = file.descriptor_.kind;
  file.metadata_.bucket_map = file.descriptor_.bucket_map;
  if (file.descriptor_.hash != header.abstraction_hash)
    fail(path, "corrupt (abstraction hash differs between header and body)");

  try {
    file.game_ = GameDefinition::from_string(game_text, path);
    file.game_.name = game_name;
  } catch (const InputError& e) {
    fail(path, std::string("bad game definition: ") + e.what());
  }
  if (file.game_.hash() != header.game_hash)
    fail(path, "corrupt (game definition does not match the header's game hash)");
  file.tree_ = std::make_unique<BettingTree>(file.game_);

  if (abstraction == nullptr) {
    if (file.descriptor_.kind == "lossless") {
      abstraction = std::make_shared<LosslessAbstraction>(file.game_);
    } else if (file.descriptor_.kind == "compact") {
      if (file.game_.num_rounds != 4)
        fail(path, "corrupt (a compact file of a game with " +
                       std::to_string(file.game_.num_rounds) + " rounds)");
      for (const PackedRoundBuckets& r : packed)
        if (const std::string why = r.check(); !why.empty())
          fail(path, "corrupt embedded bucket array: " + why);
      if (const std::string why = river.check(); !why.empty())
        fail(path, "corrupt river model: " + why);
      try {
        abstraction = std::make_shared<CompactBucketAbstraction>(
            std::move(packed), std::move(river), std::move(exceptions), file.descriptor_.hash,
            file.descriptor_.description);
      } catch (const std::invalid_argument& e) {
        fail(path, std::string("corrupt compact abstraction: ") + e.what());
      }
    } else if (file.descriptor_.kind == "buckets") {
      if (static_cast<int>(packed.size()) != file.game_.num_rounds)
        fail(path, "corrupt (embedded bucket arrays for " + std::to_string(packed.size()) +
                       " rounds, the game has " + std::to_string(file.game_.num_rounds) + ")");
      for (const PackedRoundBuckets& r : packed)
        if (const std::string why = r.check(); !why.empty())
          fail(path, "corrupt embedded bucket array: " + why);
      try {
        abstraction = std::make_shared<PackedBucketAbstraction>(
            std::move(packed), file.descriptor_.hash, file.descriptor_.description);
      } catch (const std::invalid_argument& e) {
        fail(path, std::string("corrupt embedded bucket arrays: ") + e.what());
      }
    } else {
      fail(path, "unknown abstraction kind '" + file.descriptor_.kind + "'");
    }
  }
  if (abstraction->hash() != file.descriptor_.hash)
    fail(path, "made with abstraction " + file.descriptor_.description + ", which does not match " +
                   abstraction->describe());
  file.abstraction_ = std::move(abstraction);

  Layout layout = make_layout(*file.tree_, *file.abstraction_);
  if (compact) {
    // Entropy-coded values can be far fewer bytes than values (a one-symbol context costs
    // nothing), so the layout, which the reader allocates, is bounded here instead: at most
    // 64 values a byte of body beyond 2^26 (a purified 169-9000^3 file holds about 4).
    const std::int64_t limit =
        64 * static_cast<std::int64_t>(header.body_size) + (std::int64_t{1} << 26);
    if (layout.size > limit)
      fail(path, "corrupt (" + std::to_string(layout.size) + " probabilities in a body of " +
                     std::to_string(header.body_size) + " bytes)");
    const OwnPredecessors predecessors = own_predecessors(*file.tree_);
    const std::uint32_t total = file.quantum_total();
    if (file.bits_ <= 8) {
      const ValueContexts ids = value_contexts(layout, file.game_.num_rounds, file.bits_, version4);
      std::vector<RansFrequencies> model(static_cast<std::size_t>(ids.count));
      if (frequencies.size() != model.size() * 256)
        fail(path, "corrupt (entropy model of " + std::to_string(frequencies.size()) +
                       " frequencies, the layout has " + std::to_string(ids.count) + " contexts)");
      for (std::size_t i = 0; i < frequencies.size(); ++i) model[i / 256][i % 256] = frequencies[i];
      RansDecoder decoder;
      if (!decoder.start(coded, model))
        fail(path, "corrupt (the entropy-coded probabilities do not decode)");
      bool over = false;
      file.values8_.assign(static_cast<std::size_t>(layout.size), 0);
      const bool decoded = for_each_information_set_reached(
          layout, predecessors, file.values8_, version4,
          [&](int r, std::int32_t n, std::int32_t, std::int64_t off, int actions, bool reached) {
            std::uint8_t* q = file.values8_.data() + off;
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
        fail(path, "corrupt (an information set's stored probabilities exceed " +
                       std::to_string(total) + "/" + std::to_string(total) + ")");
      if (!decoded || !decoder.finished())
        fail(path, "corrupt (the entropy-coded probabilities do not decode)");
    }
    const bool ok =
        file.bits_ <= 8 || with_unreached_and_last_values(stored16, layout, predecessors, version4,
                                                          total, file.values16_);
    if (layout.buckets != buckets || !ok)
      fail(path,
           "corrupt (strategy size does not match the game and abstraction, or an "
           "information set's stored probabilities exceed " +
               std::to_string(file.quantum_total()) + "/" + std::to_string(file.quantum_total()) +
               ")");
  }
  const std::size_t stored = file.bits_ <= 8 ? file.values8_.size() : file.values16_.size();
  if (layout.buckets != buckets || static_cast<std::int64_t>(stored) != layout.size)
    fail(path, "corrupt (strategy size does not match the game and abstraction)");
  const bool exact = file.bits_ <= 8 ? sums_are_exact(file.values8_, layout, file.quantum_total())
                                     : sums_are_exact(file.values16_, layout, file.quantum_total());
  if (!exact)
    fail(path, "corrupt (an information set's probabilities do not sum to " +
                   std::to_string(file.quantum_total()) + "/" +
                   std::to_string(file.quantum_total()) + ")");
  file.node_offset_ = std::move(layout.node_offset);
  file.num_actions_ = std::move(layout.num_actions);
  return file;
}

void StrategyFile::action_probabilities(int round, std::int32_t node, std::int32_t bucket,
                                        std::span<double> out) const {
  const std::int64_t off = offset(round, node, bucket);
  if (bits_ <= 8) {
    for (std::size_t a = 0; a < out.size(); ++a) out[a] = values8_[off + a] * scale_;
  } else {
    for (std::size_t a = 0; a < out.size(); ++a) out[a] = values16_[off + a] * scale_;
  }
}

int StrategyFile::sample_action_from_bits(int round, std::int32_t node, std::int32_t bucket,
                                          std::uint32_t bits) const {
  const std::int64_t off = offset(round, node, bucket);
  const int actions = num_actions_[round][node];
  // Uniform in [0, Q) by multiply-shift (Lemire 2019).
  std::uint32_t r =
      static_cast<std::uint32_t>((static_cast<std::uint64_t>(bits) * quantum_total()) >> 32);
  for (int a = 0; a < actions - 1; ++a) {
    const std::uint32_t q = bits_ <= 8 ? values8_[off + a] : values16_[off + a];
    if (r < q) return a;
    r -= q;
  }
  return actions - 1;
}

}  // namespace hulhe

#pragma once
// The value coding of compact strategy files (format versions 3 and 4, strategy_file.h): the
// information sets the strategy's own play reaches, each set's values without its last, the
// entropy coder's contexts, and the rANS-coded values and bucket arrays
// (util/static_rans.h). Internal to strategy_files/.
#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "game/betting_tree.h"
#include "strategy_files/packed_bucket_abstraction.h"
#include "strategy_files/strategy_file_layout.h"
#include "util/bounded_input_archive.h"

namespace hulhe::strategy_file_internal {

// Per decision node of a round, the same player's previous decision in that round and the
// slot it took towards the node (node -1: none). Decision ids number a round's nodes
// depth-first, so that decision comes earlier in the stored order (checked).
struct OwnPredecessor {
  std::int32_t node = -1;
  std::uint8_t slot = 0;
};
using OwnPredecessors = std::vector<std::vector<OwnPredecessor>>;  // [round][node]

OwnPredecessors own_predecessors(const BettingTree& tree);

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

// `conditional`: format version 4's contexts (the previous value's bin after a set's first
// slot); false: version 3's.
ValueContexts value_contexts(const Layout& layout, int rounds, int bits, bool conditional);

// Compact files of 8 bits or fewer: the stored values entropy-coded (util/static_rans.h), the
// model as 256 frequencies a context.
void write_coded_values(cereal::PortableBinaryOutputArchive& ar,
                        const std::vector<std::uint8_t>& values, const Layout& layout,
                        const OwnPredecessors& predecessors, int rounds, int bits);

// Reads back what write_coded_values wrote into `values`, the unreached sets filled with the
// uniform distribution's quantisation. `conditional`: the contexts of format version 4 (else
// version 3's); `prune`: the sets the strategy's own play never reaches left out (format
// version 4, and version 3 as its last writer wrote it). The reason for a damaged model or
// stream ("corrupt (...)"), or "" when the values decode.
std::string decode_coded_values(const std::vector<std::uint16_t>& frequencies,
                                const std::vector<std::uint8_t>& coded, const Layout& layout,
                                const OwnPredecessors& predecessors, int rounds, int bits,
                                bool conditional, bool prune, std::vector<std::uint8_t>& values);

// Format version 4's bucket arrays: each hand's bucket as two bytes, the high one under one
// context and the low one under a context per high byte (util/static_rans.h), so an array costs
// about its bucket distribution's entropy instead of ceil(log2 k) bits a hand (k-means
// buckets are uneven). Up to kMaxCodedBuckets buckets.
constexpr std::int32_t kMaxCodedBuckets = 254 * 256;

void write_coded_table(cereal::PortableBinaryOutputArchive& ar, const PackedRoundBuckets& t);

// Reads what write_coded_table wrote for a round of `hands` hands; std::invalid_argument with
// the reason for damage.
PackedRoundBuckets read_coded_table(BoundedInputArchive& ar, std::int64_t hands);

}  // namespace hulhe::strategy_file_internal

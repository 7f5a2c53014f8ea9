#include "abstraction/clustering/earth_movers_distance.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace hulhe {

double emd_1d(const float* a, const float* b, int bins) {
  // In one dimension the optimal plan never crosses itself, so the mass carried over the
  // border between bins i and i+1 is |CDF_a(i) - CDF_b(i)|.
  double cdf_a = 0.0;
  double cdf_b = 0.0;
  double total = 0.0;
  for (int i = 0; i + 1 < bins; ++i) {
    cdf_a += a[i];
    cdf_b += b[i];
    total += std::abs(cdf_a - cdf_b);
  }
  return total;
}

double emd_transport(std::span<const double> supply, std::span<const double> demand,
                     std::span<const double> cost) {
  const int n = static_cast<int>(supply.size());
  const int m = static_cast<int>(demand.size());
  if (cost.size() != static_cast<std::size_t>(n) * m)
    throw std::invalid_argument("emd_transport: cost matrix is not supply x demand");
  const double total = std::accumulate(supply.begin(), supply.end(), 0.0);
  const double eps = 1e-12 * std::max(1.0, total);
  std::vector<double> left(supply.begin(), supply.end());
  std::vector<double> need(demand.begin(), demand.end());
  std::vector<double> flow(static_cast<std::size_t>(n) * m, 0.0);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Successive shortest paths: the residual graph has forward arcs supply i -> demand j
  // (cost c_ij, unbounded) and backward arcs j -> i (cost -c_ij, capacity flow_ij). Flows
  // along shortest paths stay optimal for the mass shipped so far, so no negative cycle
  // appears and Bellman-Ford finds each path.
  std::vector<double> dist(n + m);
  std::vector<int> parent(n + m);
  double shipped_cost = 0.0;
  while (true) {
    std::fill(dist.begin(), dist.end(), kInf);
    std::fill(parent.begin(), parent.end(), -1);
    for (int i = 0; i < n; ++i)
      if (left[i] > eps) dist[i] = 0.0;
    for (int round = 0; round < n + m + 1; ++round) {
      bool changed = false;
      for (int i = 0; i < n; ++i) {
        if (dist[i] == kInf) continue;
        for (int j = 0; j < m; ++j) {
          double d = dist[i] + cost[static_cast<std::size_t>(i) * m + j];
          if (d < dist[n + j] - 1e-15) {
            dist[n + j] = d;
            parent[n + j] = i;
            changed = true;
          }
        }
      }
      for (int j = 0; j < m; ++j) {
        if (dist[n + j] == kInf) continue;
        for (int i = 0; i < n; ++i) {
          if (flow[static_cast<std::size_t>(i) * m + j] <= eps) continue;
          double d = dist[n + j] - cost[static_cast<std::size_t>(i) * m + j];
          if (d < dist[i] - 1e-15) {
            dist[i] = d;
            parent[i] = n + j;
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
    int end = -1;
    for (int j = 0; j < m; ++j)
      if (need[j] > eps && dist[n + j] < kInf && (end < 0 || dist[n + j] < dist[end])) end = n + j;
    if (end < 0) break;
    // Walk back to the path's supply to find the bottleneck.
    double amount = need[end - n];
    int v = end;
    while (parent[v] >= 0) {
      int u = parent[v];
      if (u >= n) amount = std::min(amount, flow[static_cast<std::size_t>(v) * m + (u - n)]);
      v = u;
    }
    amount = std::min(amount, left[v]);
    v = end;
    while (parent[v] >= 0) {
      int u = parent[v];
      if (u < n) {
        flow[static_cast<std::size_t>(u) * m + (v - n)] += amount;
        shipped_cost += amount * cost[static_cast<std::size_t>(u) * m + (v - n)];
      } else {
        flow[static_cast<std::size_t>(v) * m + (u - n)] -= amount;
        shipped_cost -= amount * cost[static_cast<std::size_t>(v) * m + (u - n)];
      }
      v = u;
    }
    left[v] -= amount;
    need[end - n] -= amount;
  }
  return shipped_cost;
}

GroundDistance::GroundDistance(int n, std::vector<float> dist)
    : n_(n), dist_(std::move(dist)), neighbours_(static_cast<std::size_t>(n) * n) {
  if (dist_.size() != static_cast<std::size_t>(n) * n)
    throw std::invalid_argument("GroundDistance: matrix is not n x n");
  for (int i = 0; i < n; ++i) {
    Neighbour* out = neighbours_.data() + static_cast<std::size_t>(i) * n;
    const float* d = row(i);
    for (int j = 0; j < n; ++j) out[j] = {static_cast<std::uint32_t>(j), d[j]};
    // Ties broken by index so the tables (and every greedy EMD) are deterministic.
    std::sort(out, out + n, [](const Neighbour& a, const Neighbour& b) {
      return a.distance < b.distance || (a.distance == b.distance && a.cluster < b.cluster);
    });
  }
}

void GroundDistance::set_embedding(std::vector<float> coords, int dims, bool l1) {
  if (dims < 0 || coords.size() != static_cast<std::size_t>(n_) * dims)
    throw std::invalid_argument("GroundDistance: embedding is not n x dims");
  embedding_ = std::move(coords);
  embedding_dims_ = dims;
  embedding_l1_ = l1;
}

double emd_exact(const std::uint32_t* cluster, const float* mass, int size, const float* dense,
                 const GroundDistance& ground) {
  const int n = ground.size();
  std::vector<double> supply(mass, mass + size);
  std::vector<double> demand(dense, dense + n);
  // Rescale the dense side so float rounding cannot leave the problem unbalanced.
  double s = std::accumulate(supply.begin(), supply.end(), 0.0);
  double d = std::accumulate(demand.begin(), demand.end(), 0.0);
  if (d > 0)
    for (double& x : demand) x *= s / d;
  std::vector<double> cost(static_cast<std::size_t>(size) * n);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < n; ++j) cost[static_cast<std::size_t>(i) * n + j] = ground(cluster[i], j);
  return emd_transport(supply, demand, cost);
}

namespace {

// One claim of Algorithm 2 (Ganzfried & Sandholm 2014): an entry holding `remaining` mass
// takes up to `available` of a cluster at distance d whose mean mass is `full` and of which
// `used` is claimed. Returns true when the entry has placed all its mass.
inline bool claim(float available, float d, float full, float& remaining, float& used,
                  double& total) {
  if (available < remaining) {
    total += static_cast<double>(available) * d;
    remaining -= available;
    used = full;
    return false;
  }
  total += static_cast<double>(remaining) * d;
  used += remaining;
  remaining = 0.0f;
  return true;
}

// The claim of an entry on its neighbour `nb` of the mean `dense` (what is left of the mean's
// mass there, if any); `touched` notes each cluster claimed for the first time. Returns true
// when the entry has placed all its mass.
inline bool claim_neighbour(const GroundDistance::Neighbour& nb, const float* dense,
                            float& remaining, std::vector<float>& used,
                            std::vector<std::uint32_t>& touched, double& total) {
  const std::uint32_t target = nb.cluster;
  const float available = dense[target] - used[target];
  if (!(available > 0.0f)) return false;  // nothing left there
  if (used[target] == 0.0f) touched.push_back(target);
  return claim(available, nb.distance, dense[target], remaining, used[target], total);
}

// The next claim of a greedy walk whose heap (a min-heap) holds keys with the claim's round
// at bit `round_shift` and up: pops the smallest key into `top` and its round into `round`.
// False when the heap is empty, or when a new round would begin with `total` already at
// `bound`.
inline bool pop_claim(std::vector<std::uint32_t>& heap, int round_shift, double total, double bound,
                      std::uint32_t& round, std::uint32_t& top) {
  if (heap.empty()) return false;
  top = heap.front();
  const std::uint32_t j = top >> round_shift;
  if (j != round) {
    if (total >= bound) return false;
    round = j;
  }
  std::pop_heap(heap.begin(), heap.end(), std::greater<>());
  heap.pop_back();
  return true;
}

}  // namespace

double GreedyEmd::operator()(const std::uint32_t* cluster, const float* mass, int size,
                             const float* dense, const GroundDistance& ground, double bound) {
  const int n = ground.size();
  if (static_cast<int>(used_.size()) < n) used_.assign(n, 0.0f);
  remaining_.assign(mass, mass + size);
  rows_.resize(size);
  for (int i = 0; i < size; ++i) rows_[i] = ground.neighbours(static_cast<int>(cluster[i]));
  active_.resize(size);
  std::iota(active_.begin(), active_.end(), 0);
  int num_active = size;
  double total = 0.0;
  // Round j: every entry still holding mass looks at its j-th nearest cluster (Algorithm 2
  // of Ganzfried & Sandholm 2014) and takes what is left of the mean's mass there.
  for (int j = 0; j < n && num_active > 0; ++j) {
    int kept = 0;
    for (int a = 0; a < num_active; ++a) {
      const int i = active_[a];
      if (claim_neighbour(rows_[i][j], dense, remaining_[i], used_, touched_, total))
        continue;  // this entry is done
      active_[kept++] = i;
    }
    num_active = kept;
    if (total >= bound) break;  // already no better than the caller's best
  }
  for (std::uint32_t t : touched_) used_[t] = 0.0f;
  touched_.clear();
  return total;
}

double GreedyEmd::operator()(const std::uint32_t* cluster, const float* mass, int size,
                             const float* dense, std::span<const std::uint32_t> support,
                             const GroundDistance& ground, double bound) {
  if (size > 255) throw std::invalid_argument("GreedyEmd: more than 255 entries");
  const int n = ground.size();
  if (static_cast<int>(used_.size()) < n) used_.assign(n, 0.0f);
  const std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
  if (has_mass_.size() < words) has_mass_.assign(words, 0);
  std::uint64_t* bits = has_mass_.data();
  for (std::uint32_t t : support)
    if (dense[t] > 0.0f) bits[t >> 6] |= std::uint64_t{1} << (t & 63);
  remaining_.assign(mass, mass + size);
  rows_.resize(size);
  for (int i = 0; i < size; ++i) rows_[i] = ground.neighbours(static_cast<int>(cluster[i]));
  // Entry i's first round at or after `from` whose cluster has mass left, or n. A cluster
  // found exhausted stays so (claims are never released): its bit is cleared.
  const auto next_round = [&](int i, int from) {
    const GroundDistance::Neighbour* row = rows_[i];
    for (int j = from; j < n; ++j) {
      const std::uint32_t t = row[j].cluster;
      if ((bits[t >> 6] >> (t & 63) & 1U) == 0) continue;
      if (dense[t] - used_[t] > 0.0f) return j;
      bits[t >> 6] &= ~(std::uint64_t{1} << (t & 63));
    }
    return n;
  };
  heap_.clear();
  for (int i = 0; i < size; ++i) {
    const int j = next_round(i, 0);
    if (j < n) heap_.push_back(static_cast<std::uint32_t>(j) << 8 | static_cast<std::uint32_t>(i));
  }
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  double total = 0.0;
  std::uint32_t round = 0, top = 0;
  // The round-robin walk checks the bound after every round, round 0 included.
  while (pop_claim(heap_, 8, total, bound, round, top)) {
    const std::uint32_t j = round;
    const int i = static_cast<int>(top & 0xFFU);
    if (claim_neighbour(rows_[i][j], dense, remaining_[i], used_, touched_, total))
      continue;  // this entry is done
    const int next = next_round(i, static_cast<int>(j) + 1);
    if (next < n) {
      heap_.push_back(static_cast<std::uint32_t>(next) << 8 | static_cast<std::uint32_t>(i));
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    }
  }
  for (std::uint32_t t : touched_) used_[t] = 0.0f;
  touched_.clear();
  for (std::uint32_t t : support) bits[t >> 6] = 0;
  return total;
}

NeighbourRanks::NeighbourRanks(const GroundDistance& g) : n_(g.size()) {
  if (n_ > 65536) throw std::invalid_argument("NeighbourRanks: more than 65,536 clusters");
  rank_.resize(static_cast<std::size_t>(n_) * n_);
  for (int i = 0; i < n_; ++i) {
    const GroundDistance::Neighbour* nb = g.neighbours(i);
    std::uint16_t* out = rank_.data() + static_cast<std::size_t>(i) * n_;
    for (int j = 0; j < n_; ++j) out[nb[j].cluster] = static_cast<std::uint16_t>(j);
  }
}

double SparseGreedyEmd::operator()(const std::uint32_t* cluster, const float* mass, int size,
                                   const std::uint32_t* other_cluster, const float* other_mass,
                                   int other_size, const GroundDistance& ground,
                                   const NeighbourRanks& ranks, double bound) {
  if (size > kMaxSize || other_size > kMaxSize)
    throw std::invalid_argument("SparseGreedyEmd: histogram larger than kMaxSize entries");
  const int q = other_size;
  round_.resize(static_cast<std::size_t>(size) * q);
  for (int i = 0; i < size; ++i) {
    const std::uint16_t* r = ranks.row(static_cast<int>(cluster[i]));
    std::uint16_t* out = round_.data() + static_cast<std::size_t>(i) * q;
    for (int s = 0; s < q; ++s) out[s] = r[other_cluster[s]];
  }
  remaining_.assign(mass, mass + size);
  used_.assign(q, 0.0f);
  last_.assign(size, -1);
  // Entry i's next claim as a heap key, round << 16 | i << 8 | the other cluster's position
  // (claims in (round, entry) order): its earliest round after the last one looked at whose
  // cluster still has mass left (what is claimed is never released, so a cluster found
  // exhausted stays so). False when it has none.
  const auto push_next = [&](int i) {
    const std::uint16_t* r = round_.data() + static_cast<std::size_t>(i) * q;
    int best = 1 << 16, at = 0;
    for (int s = 0; s < q; ++s)
      if (r[s] > last_[i] && r[s] < best && other_mass[s] - used_[s] > 0.0f) {
        best = r[s];
        at = s;
      }
    if (best == 1 << 16) return false;
    heap_.push_back(static_cast<std::uint32_t>(best) << 16 | static_cast<std::uint32_t>(i) << 8 |
                    static_cast<std::uint32_t>(at));
    return true;
  };
  heap_.clear();
  for (int i = 0; i < size; ++i) push_next(i);
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  double total = 0.0;
  std::uint32_t round = 0, top = 0;
  // As GreedyEmd, the bound is checked after every round, round 0 included.
  while (pop_claim(heap_, 16, total, bound, round, top)) {
    const std::uint32_t j = round;
    const int i = static_cast<int>((top >> 8) & 0xFFU);
    const int s = static_cast<int>(top & 0xFFU);
    last_[i] = static_cast<int>(j);
    const float available = other_mass[s] - used_[s];
    if (available > 0.0f &&
        claim(available, ground(static_cast<int>(cluster[i]), static_cast<int>(other_cluster[s])),
              other_mass[s], remaining_[i], used_[s], total))
      continue;  // this entry is done
    if (push_next(i)) std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }
  return total;
}

}  // namespace hulhe

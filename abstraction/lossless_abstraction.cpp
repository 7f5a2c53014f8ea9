#include "abstraction/lossless_abstraction.h"

#include <vector>

#include "util/checksums.h"
#include "util/combinatorics.h"
#include "util/input_error.h"

namespace hulhe {
namespace {}  // namespace

LosslessAbstraction::LosslessAbstraction(const GameDefinition& game)
    : num_rounds_(game.num_rounds), num_hole_cards_(game.num_hole_cards), game_name_(game.name) {
  deck_index_.fill(-1);
  const std::vector<Card> deck = game.deck();
  for (std::size_t i = 0; i < deck.size(); ++i) deck_index_[deck[i]] = static_cast<std::int8_t>(i);
  const int n = static_cast<int>(deck.size());
  const std::int64_t hole_subsets = binomial(n, num_hole_cards_);
  for (int r = 0; r < num_rounds_; ++r) {
    board_cards_[r] = game.total_board_cards(r);
    const std::int64_t boards = binomial(n, board_cards_[r]);
    const std::int64_t buckets = hole_subsets * boards;
    if (buckets > kMaxBuckets) {
      std::string msg = "game '";
      msg += game.name;
      msg += "' is too large for the lossless abstraction (";
      msg += std::to_string(buckets);
      msg += " buckets in round ";
      msg += std::to_string(r);
      msg += "); use a clustered abstraction";
      throw InputError(msg);
    }
    board_subsets_[r] = static_cast<std::int32_t>(boards);
    num_buckets_[r] = static_cast<std::int32_t>(buckets);
  }
  // FNV-1a over the game's hash and the scheme's name: the buckets are a function of both.
  std::uint64_t h = kFnv1aOffset;
  auto mix = [&h](std::uint64_t v) {  // the value's 8 bytes, little-endian
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xffU);
    h = fnv1a(std::string_view(bytes, 8), h);
  };
  mix(game.hash());
  for (char c : std::string("lossless-v1")) mix(static_cast<unsigned char>(c));
  hash_ = h;
}

std::int64_t LosslessAbstraction::subset_rank(const Card* cards, int count) const {
  // Colex rank = sum of C(index, position) over the indices in ascending order; an
  // insertion sort suffices for at most kMaxBoardCards cards.
  std::array<int, kMaxBoardCards> idx{};
  int m = 0;
  for (int i = 0; i < count && i < kMaxBoardCards; ++i) {
    int v = deck_index_[cards[i]];
    int j = m++;
    while (j > 0 && idx[j - 1] > v) {
      idx[j] = idx[j - 1];
      --j;
    }
    idx[j] = v;
  }
  std::int64_t rank = 0;
  for (int i = 0; i < m; ++i) rank += binomial(idx[i], i + 1);
  return rank;
}

std::int32_t LosslessAbstraction::bucket(int round, const Card* hole, const Card* board) const {
  const std::int64_t h = subset_rank(hole, num_hole_cards_);
  const std::int64_t b = subset_rank(board, board_cards_[round]);
  return static_cast<std::int32_t>(h * board_subsets_[round] + b);
}

std::string LosslessAbstraction::describe() const {
  std::string s = "lossless (every hole+board view its own bucket;";
  for (int r = 0; r < num_rounds_; ++r) {
    s += ' ';
    s += std::to_string(num_buckets_[r]);
  }
  s += " buckets by round)";
  return s;
}

}  // namespace hulhe

#pragma once
// One person's session at the web table: the engine's HumanSession
// (strategies/human_session.h: deals, seats alternating, legal actions, the opponent's
// actions with their probabilities, showdown, session totals, the ACPC hand history) with the
// person's name, seen as the JSON of the API (docs/serve-api.md). All chip arithmetic is the
// engine's; this file only reports it.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/opponent.h"
#include "server/play_store.h"

namespace hulhe {
class HumanSession;
}

namespace hulhe::server {

class PlaySession {
 public:
  PlaySession(const Opponent& opponent, std::string player, std::uint64_t seed);
  ~PlaySession();
  PlaySession(const PlaySession&) = delete;
  PlaySession& operator=(const PlaySession&) = delete;

  const std::string& player() const { return player_; }

  // Deals the next hand (the opponent acts first where it is its turn); 409 while a hand is
  // in progress.
  nlohmann::json new_hand();
  // The person's action: "fold", "check", "call", "bet", "raise" or the ACPC letters f, c, r.
  // 409 when no hand is in progress or it is not the person's turn; 400 for an illegal one.
  nlohmann::json act(const std::string& action);
  // The table as the person sees it (docs/serve-api.md#state).
  nlohmann::json state();  // not const: the engine caches the odds it computes
  // Hands played and the result in mbb/g with its 95% interval.
  nlohmann::json totals() const;
  // Every completed hand as an ACPC dealer log (`hulhe logs` replays it).
  std::string history() const;
  // The hands completed since the last call, for the store (session id left to the caller).
  std::vector<StoredHand> take_completed_hands();

 private:
  std::string opponent_name_;
  std::string game_name_;
  std::int32_t big_blind_;
  std::string player_;
  std::unique_ptr<HumanSession> table_;
  std::int64_t hands_stored_ = 0;
};

}  // namespace hulhe::server

#pragma once
// One person's session at the web table: the engine's HumanSession
// (human_play/human_session.h: deals, seats alternating, legal actions, the opponent's
// actions with their probabilities, showdown, session totals, the ACPC hand history) with the
// person's name, seen as the JSON of the API (docs/serve-api.md). All chip arithmetic is the
// engine's; this file only reports it.
//
// A hand is complete only once it is stored: new_hand() and act() hand the hands they
// complete to the caller's StoreHand, retried briefly, and when it still fails the step is
// undone (the engine's checkpoint) and refused with 503, the session as it was. Each state
// carries a state number, one more after every change; a request that names the number it
// was sent against is refused with 409 when the session has moved on (a double click).
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
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
  // Writes one completed hand to the store (the caller adds the session id); throws when it
  // cannot (PlayStore::record_hand).
  using StoreHand = std::function<void(StoredHand&)>;

  PlaySession(const Opponent& opponent, std::string player, std::uint64_t seed);
  ~PlaySession();
  PlaySession(const PlaySession&) = delete;
  PlaySession& operator=(const PlaySession&) = delete;

  const std::string& player() const { return player_; }

  // The "state_number" of a request body: nullopt when absent; 400 when it is not a
  // non-negative integer.
  static std::optional<std::int64_t> requested_state_number(const nlohmann::json& body);

  // Deals the next hand (the opponent acts first where it is its turn) and stores it if it
  // ends at once (the opponent folds its small blind); 409 while a hand is in progress or
  // when `state_number` is not the current one; 503 (nothing changed) when the completed
  // hand cannot be stored.
  nlohmann::json new_hand(std::optional<std::int64_t> state_number, const StoreHand& store);
  // The person's action: "fold", "check" (nothing to call), "call" (a bet to face), "bet"
  // (the round's first bet; preflop the blinds are one), "raise" (after a bet), or the ACPC
  // letters f, c, r. 409 when no hand is in progress, it is not the person's turn or
  // `state_number` is stale; 400 for an illegal action or a name that does not fit the
  // betting (a check facing a bet, a call with nothing to call, a bet after a bet, a raise
  // of nothing); 503 (nothing changed) when the hand it completes cannot be stored.
  nlohmann::json act(const std::string& action, std::optional<std::int64_t> state_number,
                     const StoreHand& store);
  // For a person who left mid-hand (the session expired, was replaced, or the server stops):
  // finishes the running hand by the engine's rule (HumanSession::abandon_hand: a fold at
  // the person's decision facing a bet, a check where nothing is to call) so that
  // take_completed_hands() returns it for the store. Nothing when no hand is running. The
  // session registry calls it before it drops a session, the server before it stops.
  void abandon_hand();
  // The person leaves the table (the page's "Leave the table"): abandon_hand() as a step of
  // the API, its hand stored like any other (503 and nothing changed when it cannot be); the
  // session stays until it expires. 409 when `state_number` is stale.
  nlohmann::json leave(std::optional<std::int64_t> state_number, const StoreHand& store);
  // The table as the person sees it (docs/serve-api.md#state).
  nlohmann::json state();  // not const: the engine caches the odds it computes
  std::int64_t state_number() const { return state_number_; }
  // Hands played and the result in mbb/g with its 95% interval.
  nlohmann::json totals() const;
  // Every completed hand as an ACPC dealer log (`hulhe logs` replays it).
  std::string history() const;
  // The hands completed and not yet handed out, for the store (session id left to the
  // caller); new_hand() and act() hand theirs out themselves, so after them this is empty.
  std::vector<StoredHand> take_completed_hands();
  // Stores the hands completed and not yet stored (after abandon_hand()) through `store`,
  // retried briefly; a hand counts as handed out only once `store` returned, so when it
  // throws (the exception passes through) the hand is still pending and a later call, or
  // the session's next step, stores it.
  void store_completed_hands(const StoreHand& store);

 private:
  template <typename Change>
  nlohmann::json step(std::optional<std::int64_t> state_number, const StoreHand& store,
                      Change change);
  std::vector<StoredHand> pending_hands() const;

  std::string opponent_name_;
  std::string game_name_;
  std::int32_t big_blind_;
  std::string player_;
  std::unique_ptr<HumanSession> table_;
  std::int64_t hands_stored_ = 0;
  std::int64_t state_number_ = 0;
};

}  // namespace hulhe::server

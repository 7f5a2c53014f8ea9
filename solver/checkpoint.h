#pragma once
// Solver checkpoints (`*.ckpt`, DESIGN.md "Files"): everything a run needs to continue
// bit-for-bit and everything export/exploit need to rebuild the game.
//
// Layout (little-endian): magic "HULHECKP" · u32 version · u64 game hash · u64 abstraction
// hash · u64 body size · u64 FNV-1a checksum of the body · body (cereal portable binary:
// game definition text, abstraction kind and bucket-map reference, iteration count,
// algorithm and parameters, u8 table precision in bits (32 or 64; from version 3), the tables'
// layout and bucket counts (from version 4), regret and average-strategy tables in that
// precision). Version 2 files (float32 tables, no precision byte) and version 3 files
// (node-major tables) are still read. Every text field is checked against what it may be (a known
// algorithm and abstraction kind, plain UTF-8 names and paths without control bytes). No RNG state
// is stored: every random choice derives from (seed, iteration). Written to PATH.tmp, flushed, then
// renamed over PATH, so a crash or a full disk never loses the last good checkpoint.
// Reading never trusts the body before the size and checksum match: a truncated, corrupt,
// foreign or newer file is an InputError naming it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abstraction/abstraction_factory.h"
#include "abstraction/card_abstraction.h"
#include "game/game_definition.h"
#include "public_tree/strategy_tables.h"
#include "solver/cfr_algorithm.h"

namespace hulhe {

// 2: 32-bit tables and the MCCFR schedule parameters; 3: the tables' precision (32 or 64);
// 4: the tables' layout (node- or bucket-major) and bucket counts (strategy_tables.h);
// 5: the algorithm's state beyond the tables (CfrAlgorithm::extra_state), after the tables.
inline constexpr std::uint32_t kCheckpointVersion = 5;
inline constexpr std::uint32_t kCheckpointVersionFloat32 = 2;

struct Checkpoint {
  std::string game_text;  // GameDefinition::to_acpc_string()
  std::string game_name;
  std::uint64_t game_hash = 0;
  std::string abstraction_kind = "lossless";  // or "buckets" (a bucket-map file)
  std::string bucket_map;
  std::uint64_t abstraction_hash = 0;
  std::int64_t iterations = 0;
  CfrParameters params;
  StrategyTables tables;
  // CfrAlgorithm::extra_state (empty for every algorithm but sampled CFR-BR).
  std::vector<float> algorithm_state;

  GameDefinition game() const;
};

void write_checkpoint(const std::string& path, const Checkpoint& checkpoint);
Checkpoint read_checkpoint(const std::string& path);

// Throws InputError naming `path` when the checkpoint is of another game or abstraction.
void check_checkpoint_matches(const Checkpoint& checkpoint, const std::string& path,
                              const GameDefinition& game, const CardAbstraction& abstraction);

// FNV-1a of a file's bytes (strategy files record the checkpoint they came from).
std::uint64_t file_hash(const std::string& path);

}  // namespace hulhe

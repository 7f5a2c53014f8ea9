#pragma once
// `hulhe play --human`: a person at a text table against an agent (cli/command_play_human.cpp).
#include <cstdint>
#include <cstdio>
#include <istream>
#include <string>

namespace hulhe::cli {

struct HumanPlayOptions {
  std::string agent_spec;  // a strategy file or bot:NAME (agents/agent_factory.h)
  std::string game_path;   // empty: the strategy file's game, or HULHE for a bot
  std::int64_t hands = 0;  // 0: until the person quits or the input ends
  std::uint64_t seed = 1;
  std::string name = "you";
  std::string log;  // the ACPC dealer log of the completed hands; empty: none
};

// Plays until `hands` hands are done, the person types q, or `in` ends; the table goes to
// `out`. Bad input files are InputError (exit status 2); bad typing at the prompt is
// answered and asked again.
void play_human(const HumanPlayOptions& options, std::istream& in, std::FILE* out);

}  // namespace hulhe::cli

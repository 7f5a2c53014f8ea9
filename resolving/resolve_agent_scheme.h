#pragma once
// Registers the agent spec `resolve:FILE[:options]` (resolving_agent.h) with the agent factory
// (agents/agent_factory.h, register_agent_scheme), so that `play`, `match`, `tournament`
// and `serve` accept it. The program calls this once at start-up (cli/main.cpp); the factory
// cannot include this folder, which sits above it.
namespace hulhe {

void register_resolving_agent();

}  // namespace hulhe

#pragma once
// Each subcommand lives in its own cli/command_<name>.cpp and registers itself here.
// A command's callback throws InputError for bad input; main() prints it and exits 2.
#include <CLI/CLI.hpp>

namespace hulhe::cli {

void add_info_command(CLI::App& app);
void add_hand_command(CLI::App& app);
void add_logs_command(CLI::App& app);
void add_equity_command(CLI::App& app);
void add_abstract_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_exploit_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_dealer_command(CLI::App& app);
void add_match_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_lbr_command(CLI::App& app);
void add_show_command(CLI::App& app);
void add_serve_command(CLI::App& app);

}  // namespace hulhe::cli

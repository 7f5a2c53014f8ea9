// The `hulhe` command: parses the subcommand and hands over to its cli/command_*.cpp.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include "cli/commands.h"
#include "cli/exit_status.h"
#include "cli/number_checks.h"
#include "distributed/distributed_error.h"
#include "distributed/process_group.h"
#include "resolving/resolve_agent_scheme.h"
#include "util/input_error.h"
#include "util/printable_text.h"

int main(int argc, char** argv) {
  // Agent specs of resolving/ (`resolve:FILE[:options]`) for every command that takes agents.
  hulhe::register_resolving_agent();
  CLI::App app{"hulhe: equilibrium strategies for heads-up limit Texas hold'em"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "hulhe 0.1.0");
  // Registration list: one line per subcommand (see cli/commands.h).
  hulhe::cli::add_info_command(app);
  hulhe::cli::add_hand_command(app);
  hulhe::cli::add_logs_command(app);
  hulhe::cli::add_equity_command(app);
  hulhe::cli::add_abstract_command(app);
  hulhe::cli::add_solve_command(app);
  hulhe::cli::add_export_command(app);
  hulhe::cli::add_exploit_command(app);
  hulhe::cli::add_run_command(app);
  hulhe::cli::add_compare_command(app);
  hulhe::cli::add_play_command(app);
  hulhe::cli::add_dealer_command(app);
  hulhe::cli::add_match_command(app);
  hulhe::cli::add_tournament_command(app);
  hulhe::cli::add_lbr_command(app);
  hulhe::cli::add_show_command(app);
  hulhe::cli::add_serve_command(app);
  hulhe::cli::add_number_checks(app);
  // Under mpirun an error on one rank ends every rank (abort_process_group), with the rank
  // named in the message; without mpirun both are no-ops.
  int status = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints help/version with exit 0; every real parse error is bad input: exit 2.
    int code = app.exit(e);
    status = code == 0 ? 0 : 2;
  } catch (const hulhe::cli::ExitStatus& e) {
    status = e.code;
  } catch (const hulhe::InputError& e) {
    // Messages quote input files; their raw bytes must not reach the terminal.
    std::fprintf(stderr, "hulhe: error: %s%s\n", hulhe::rank_prefix().c_str(),
                 hulhe::printable(e.what()).c_str());
    status = 2;
  } catch (const hulhe::DistributedError& e) {
    std::fprintf(stderr, "hulhe: error: %s%s\n", hulhe::rank_prefix().c_str(), e.what());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hulhe: internal error: %s%s\n", hulhe::rank_prefix().c_str(), e.what());
    status = 1;
  }
  // What a command printed may not have reached stdout (`> /dev/full`, a closed pipe, a full
  // disk): that is a failed output like any file's, exit 2, never a silent 0.
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if ((!flushed || std::ferror(stdout)) && status == 0) {
    const int err = errno;
    std::fprintf(stderr, "hulhe: error: %scannot write the output to stdout: %s\n",
                 hulhe::rank_prefix().c_str(), err != 0 ? std::strerror(err) : "a write failed");
    status = 2;
  }
  if (status != 0) {
    std::fflush(stdout);
    hulhe::abort_process_group(status);
  }
  hulhe::leave_process_group();
  return status;
}

#pragma once
// A command that completed its report but must tell the caller something through its exit
// status (`hulhe logs`: 1 when it found mismatches or bad lines) throws ExitStatus after
// printing; main() returns `code`. Bad input stays an InputError (exit status 2).
namespace hulhe::cli {

struct ExitStatus {
  int code = 1;
};

}  // namespace hulhe::cli

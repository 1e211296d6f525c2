/// Output files are checked before anything is simulated: a run of minutes must not end in
/// "cannot write". Nothing is created or truncated by the check.
#ifndef IMPAX_CLI_OUTPUTS_H
#define IMPAX_CLI_OUTPUTS_H

/// 0 if path could be written (an existing regular file that is writable, or a new file in an
/// existing, writable directory); else -1 after printing on stderr
/// "impax CMD: cannot write OPTION 'PATH': reason".
int cli_check_output(const char *cmd, const char *option, const char *path);

#endif

/// The `impax` command: subcommands and what they share.
/// Exit status: 0 success; 1 a world file has errors or a simulation failed; 2 bad usage
/// (unknown option, bad number, unknown model or parameter, an output that cannot be written).
/// Every message of a command starts "impax CMD: " (docs/command.md "Exit status and messages").
#ifndef IMPAX_CLI_H
#define IMPAX_CLI_H

#include "world.h"

enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

#ifndef IMPAX_WORLDS_DIR
#error "IMPAX_WORLDS_DIR (where CMake installs worlds/) must be defined"
#endif
/// The example worlds' installed folder, which the help texts' examples use.
#define CLI_WORLDS IMPAX_WORLDS_DIR

int cli_cmd_run(int argc, char **argv);
int cli_cmd_ab(int argc, char **argv);
int cli_cmd_set(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_replay(int argc, char **argv);
int cli_cmd_fit(int argc, char **argv);
int cli_cmd_models(int argc, char **argv);
int cli_cmd_sweep(int argc, char **argv);

/// The command's name for the messages of the parsers below ("impax CMD: ..."); main sets it.
void cli_set_command(const char *name);

/// Loads a world file, printing its diagnostics ("FILE:LINE: ...") on stderr. NULL on error.
ipx_scene *cli_load_scene(const char *path);
/// Loads a world file printing nothing: NULL on error, with the first error line in message.
ipx_scene *cli_load_scene_quiet(const char *path, char *message, size_t message_size);

/// Parses a finite number > 0 (or >= 0 when allow_zero) given to option; prints why not.
int cli_parse_seconds(const char *text, const char *option, double *out);
/// Parses a number in [lo, hi] given to option; prints why not.
int cli_parse_real(const char *text, const char *option, double lo, double hi, double *out);
/// ceil(duration / step) steps into *n: 0, or -1 with a message when the count does not fit in
/// a long (a (long) of a larger double is undefined: 9.3e15 s or 1e300 s at 1 ms gave 0 steps).
int cli_step_count(double duration_s, double step_s, long *n, char *message, size_t message_size);
/// Parses an integer in [lo, hi] given to option; prints why not.
int cli_parse_int(const char *text, const char *option, long lo, long hi, long *out);

/// Prints "impax CMD: message" and a pointer to --help on stderr; returns CLI_USAGE.
int cli_usage_error(const char *cmd, const char *message);

#endif

/// impax core: the model registry and parameter tables.
///
/// Every model registers a name, a solver and a parameter table (name, default, range, unit,
/// one-line doc). The shim, the command line and the world files parse `key=value,key=value`
/// parameter strings here, in one place, and get the same errors.
#ifndef IMPAX_REGISTRY_H
#define IMPAX_REGISTRY_H

#include <stddef.h>
#include "impax/types.h"
#include "impax/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest number of parameters one model has.
#define IPX_MAX_PARAMS 32

/// One parameter of a model.
typedef struct ipx_param_def {
    const char *name; ///< what users type
    double def;       ///< default value
    double min, max;  ///< accepted closed range
    int integer;      ///< 1 if the value must be a whole number
    const char *unit; ///< SI unit, or "" for dimensionless, "flag" for 0/1
    const char *doc;  ///< one line
} ipx_param_def;

/// Which invariants a model promises for its results (bits of ipx_check_kind, see check.h).
typedef unsigned (*ipx_promises_fn)(const double *param);
typedef ipx_status (*ipx_solve_fn)(const ipx_problem *p, const double *param, ipx_workspace *ws,
                                   ipx_result *r);
typedef size_t (*ipx_workspace_fn)(int k, const double *param);
/// Fewest contacts from which a model's solve reads W only as blocks (ipx_problem.Ws).
typedef int (*ipx_blocks_from_fn)(const double *param);

/// A registered model. Read-only.
typedef struct ipx_model {
    const char *name; ///< "aplcp", "plus", ...
    const char *doc;  ///< one line
    int n_params;
    const ipx_param_def *params;      ///< n_params entries
    ipx_solve_fn solve;               ///< contact-space solver
    ipx_workspace_fn workspace_bytes; ///< bytes the solver needs for k contacts
    ipx_promises_fn promises;         ///< invariants it guarantees, given its parameters
    ipx_blocks_from_fn blocks_from;   ///< NULL: solve reads W densely at every size
    /// bytes the solver needs for k >= blocks_from contacts with W given as blocks (O(k): the
    /// problem's blocks are read in place); set exactly when blocks_from is
    ipx_workspace_fn blocks_workspace_bytes;
    /// The flag parameter that turns the model's restitution law on: while it is 0 the model is
    /// inelastic and leaves each contact's restitution aside (ipx_params_inelastic). NULL for a
    /// model that applies each contact's restitution itself.
    const char *restitution_flag;
    /// 1 if the model takes a contact's mu = +INFINITY as its limit, a contact that never slides
    /// (ipx_contact.mu); 0: ipx_solve refuses such a problem by name (ipx_problem_finite_mu).
    int takes_infinite_mu;
} ipx_model;

/// A model together with the values of its parameters.
typedef struct ipx_params {
    const ipx_model *model;
    double value[IPX_MAX_PARAMS]; ///< indexed like model->params
} ipx_params;

/// Number of registered models and the i-th one (registration order).
int ipx_model_count(void);
const ipx_model *ipx_model_at(int i);

/// The model of that name, or NULL.
const ipx_model *ipx_model_find(const char *name);

/// Comma-separated list of registered model names, e.g. "aplcp, plus".
void ipx_model_names(char *buf, size_t size);

/// 1 if the model reads W as blocks at k contacts (ipx_problem.Ws taken as it is); 0 if its
/// solve needs W densely there, which ipx_solve then copies out of a problem of blocks into the
/// workspace (O(k^2) memory and time: hosts give such a model a dense W).
int ipx_model_reads_blocks(const ipx_params *params, int k);

/// 1 if the model, at these parameter values, leaves each contact's restitution aside: it has a
/// restitution_flag and that parameter is 0.
int ipx_params_inelastic(const ipx_params *params);

/// The restitution the model leaves aside on p: 0 unless it is inelastic at these values
/// (ipx_params_inelastic); then the largest e of p's contacts that approach faster than their
/// v_capture, whose bounce the contact asked for (an ODE program's bounce above bounce_vel).
double ipx_params_ignored_restitution(const ipx_params *params, const ipx_problem *p);

/// Fills params with the model's defaults.
void ipx_params_default(ipx_params *params, const ipx_model *model);

/// Looks up a model by name and fills its defaults. On an unknown name returns IPX_ERR_INPUT
/// and writes "unknown model 'x' (accepted: aplcp, plus, ...)" into message.
ipx_status ipx_params_init(ipx_params *params, const char *model_name, char *message,
                           size_t message_size);

/// Applies "key=value,key=value" on top of the current values (the list's rules:
/// ipx_params_next). An unknown key, a malformed, overflowing, underflowing or non-finite number,
/// a non-integer where an integer is required or a value out of range gives IPX_ERR_INPUT, a
/// message naming the item and the accepted names or range, and leaves params unchanged. NULL,
/// "" or white space alone changes nothing.
ipx_status ipx_params_parse(ipx_params *params, const char *text, char *message,
                            size_t message_size);

/// One item of a parameter list: its key and value without the white space around them
/// (pointers into the list's text, not terminated).
typedef struct ipx_param_item {
    const char *key, *value;
    size_t key_len, value_len;
} ipx_param_item;

/// The next item of the list `text` at *cursor (set *cursor = text first), moving *cursor past
/// it: 1 and *item, 0 at the end, -1 and a message. The rules of parameter strings
/// (ipx_params_parse, `--params`, `<impax:params>`): items are separated by commas; white space
/// (blanks, tabs, newlines) around items, keys and values is ignored; an empty item — a
/// leading, trailing or doubled comma — is an error, as is an item without '=' or with an empty
/// key or value. "" or white space alone has no items. Messages quote the text printably
/// (ipx_printable).
int ipx_params_next(const char *text, const char **cursor, ipx_param_item *item, char *message,
                    size_t message_size);

/// 1 if the item's key is `key`.
int ipx_param_item_is(const ipx_param_item *item, const char *key);

/// A host's reader of its own keys (ipx_params_split): 1 if it took the item, 0 if the item is
/// not one of its keys, -1 with a message for a bad value of one of them.
typedef int (*ipx_param_take_fn)(void *user, const ipx_param_item *item, char *message,
                                 size_t message_size);

/// Takes a host's own keys out of a parameter list (ipx_params_next's rules): each item goes to
/// take(user, ...), and the items it does not take are written to rest (rest_size bytes) as
/// "key=value,..." for the model. 0, or -1 with a message: a list breaking the rules, a bad
/// value (take's message), or rest too short ("parameters too long (N characters at most)").
int ipx_params_split(const char *text, ipx_param_take_fn take, void *user, char *rest,
                     size_t rest_size, char *message, size_t message_size);

/// The item's value as a number (strtod's syntax, "inf" and "nan" included: ranges are the
/// caller's). IPX_ERR_INPUT and "parameter KEY: 'VALUE' is not a number", "... underflows" or
/// "... overflows" otherwise.
ipx_status ipx_param_number(const ipx_param_item *item, double *out, char *message,
                            size_t message_size);

/// Copies at most n bytes of text (up to a NUL) into out (size bytes, always terminated, cut to
/// fit) with control characters written as \n, \t, \r or \xHH: user text quoted in a message
/// stays on one printable line.
void ipx_printable(const char *text, size_t n, char *out, size_t size);

/// Sets one parameter by name with the same checks as ipx_params_parse.
ipx_status ipx_params_set(ipx_params *params, const char *key, double value, char *message,
                          size_t message_size);

/// Index of a parameter in params->model->params, or -1.
int ipx_param_index(const ipx_model *model, const char *key);

/// Writes "key=value,..." for every parameter (round-trips through ipx_params_parse).
void ipx_params_format(const ipx_params *params, char *buf, size_t size);

/// Validates the problem (see validate.h), then runs the model. Never allocates.
/// On any failure r->status and r->message say why and r->impulse is all zero. An answer that
/// gains energy from a model that promises not to (IPX_CHECK_ENERGY in its promises, judged by
/// ipx_check_energy_excess at the checker's default tolerances) fails with IPX_ERR_NUMERIC.
ipx_status ipx_solve(const ipx_params *params, const ipx_problem *p, ipx_workspace *ws,
                     ipx_result *r);

#ifdef __cplusplus
}
#endif
#endif

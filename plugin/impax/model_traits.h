/// What the command says about models beyond their parameter tables: which ones leave a
/// surface's restitution aside unless a parameter turns their restitution law on, and which
/// one turns contacts into forces (its "impact events" are steps with contact forces).
#ifndef IMPAX_CLI_MODEL_TRAITS_H
#define IMPAX_CLI_MODEL_TRAITS_H

#include <stddef.h>

/// The flag that turns model's restitution law on ("newton_restitution" for aplcp,
/// "poisson_restitution" for routh), or NULL for a model that applies each contact's
/// restitution by itself (plus, jia, bowling, gonthier, ode).
const char *cli_restitution_flag(const char *model);

/// 1 if model, configured by params ("key=value,...", NULL or "" for none), is inelastic: it has
/// a restitution flag and the flag is 0 (the last value params gives, else the default).
int cli_model_inelastic(const char *model, const char *params);

/// Writes "LABEL: MODEL is inelastic unless FLAG=1: the surfaces' restitution (e up to E) was
/// ignored" (the note a run of an inelastic model on bouncing contacts ends with; no "LABEL: "
/// when label is the model's name) into buf.
void cli_inelastic_note(char *buf, size_t size, const char *label, const char *model, double e);

/// 1 for the compliant model (gonthier: the adapter turns its contacts into forces each step).
int cli_model_compliant(const char *model);

#endif

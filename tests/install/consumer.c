/* Solves one frictionless impact through the installed library: pi_n = -v_n / W_nn = 2 N*s. */
#include <impax/impax.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    double W[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0.5}, v[3] = {0, 0, -1};
    ipx_contact c = {0.0, 0.0, 0.0, 0.0};
    ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c};
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    if (ipx_params_init(&par, "aplcp", msg, sizeof msg) != IPX_OK) return 1;
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_result r;
    int ok = ipx_solve(&par, &p, ws, &r) == IPX_OK && fabs(r.impulse[IPX_N] - 2.0) < 1e-12;
    printf("impulse %g: %s\n", r.impulse[IPX_N], ok ? "ok" : "wrong");
    ipx_workspace_destroy(ws); /* the result's arrays live in it */
    return ok ? 0 : 1;
}

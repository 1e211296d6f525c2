#include <stdio.h>

#include "ensure.h"
#include "model_test.h"

ipx_params ipx_test_params(const char *model, const char *text)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, model, msg, sizeof msg) == IPX_OK);
    if (ipx_params_parse(&p, text, msg, sizeof msg) != IPX_OK) {
        ENSURE(!"parameters parse");
        fprintf(stderr, "  %s\n", msg);
    }
    return p;
}

ipx_status ipx_test_solve(const ipx_params *par, const ipx_problem *prob, ipx_result *r)
{
    ipx_workspace *ws = ipx_workspace_create(par, prob->k);
    ipx_status st = ipx_solve(par, prob, ws, r);
    ipx_workspace_destroy(ws);
    if (st == IPX_OK) ENSURE(ipx_test_keeps_promises(par, prob, r));
    return st;
}

int ipx_test_keeps_promises(const ipx_params *par, const ipx_problem *prob, const ipx_result *r)
{
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = par->model->promises(par->value);
    ipx_check_report rep;
    const int bad = ipx_check(prob, r, &opt, &rep);
    if (bad) {
        char buf[1024];
        ipx_check_format(&rep, buf, sizeof buf);
        fprintf(stderr, "%s", buf);
    }
    return bad == 0;
}

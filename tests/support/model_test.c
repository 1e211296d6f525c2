#include <stdio.h>
#include <string.h>

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

void ipx_test_param_refuses(const char *model, const char *name, int index, double def,
                            const char *const *bad, size_t n)
{
    ipx_params par = ipx_test_params(model, "");
    char message[IPX_MESSAGE_SIZE];
    ENSURE(ipx_param_index(par.model, name) == index);
    ENSURE(par.value[index] == def);
    for (size_t i = 0; i < n; i++) {
        message[0] = '\0';
        ENSURE(ipx_params_parse(&par, bad[i], message, sizeof message) != IPX_OK);
        ENSURE(strstr(message, name) != NULL);
        ENSURE(par.value[index] == def);
    }
}

ipx_workspace *ipx_test_workspace(const ipx_params *par, int k)
{
    static ipx_workspace *ring[IPX_TEST_KEPT_RESULTS];
    static int next;
    ipx_workspace_destroy(ring[next]);
    ring[next] = ipx_workspace_create(par, k);
    ipx_workspace *ws = ring[next];
    next = (next + 1) % IPX_TEST_KEPT_RESULTS;
    return ws;
}

ipx_status ipx_test_solve(const ipx_params *par, const ipx_problem *prob, ipx_result *r)
{
    ipx_workspace *ws = ipx_test_workspace(par, prob->k);
    ipx_status st = ipx_solve(par, prob, ws, r);
    if (st == IPX_OK) ENSURE(ipx_test_keeps_promises(par, prob, r));
    return st;
}

int ipx_test_keeps_promises(const ipx_params *par, const ipx_problem *prob, const ipx_result *r)
{
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds =
        par->model->promises(par->value) | IPX_CHECK_SAFETY_NET; /* a fired net is a finding */
    ipx_check_report rep;
    const int bad = ipx_check(prob, r, &opt, &rep);
    if (bad) {
        char buf[1024];
        ipx_check_format(&rep, buf, sizeof buf);
        fprintf(stderr, "%s", buf);
    }
    return bad == 0;
}

int ipx_test_check_findings(const ipx_problem *prob, const ipx_result *r, unsigned kinds,
                            double eps_v, char *buf, size_t size)
{
    ipx_check_options opt = ipx_check_default_options(), opt_v = opt;
    opt.kinds = kinds & ~(unsigned)IPX_CHECK_NONPENETRATION;
    opt_v.kinds = kinds & (unsigned)IPX_CHECK_NONPENETRATION;
    opt_v.tol_abs = eps_v;
    ipx_check_report rep, rep_v;
    const int bad = ipx_check(prob, r, &opt, &rep) + ipx_check(prob, r, &opt_v, &rep_v);
    if (bad && buf && size > 0) {
        char part[512];
        buf[0] = '\0';
        for (int i = 0; i < 2; i++) {
            ipx_check_format(i ? &rep_v : &rep, part, sizeof part);
            strncat(buf, part, size - strlen(buf) - 1);
        }
    }
    return bad;
}

int ipx_test_check_kinds(const ipx_problem *prob, const ipx_result *r, unsigned kinds, double eps_v)
{
    char buf[1024];
    const int bad = ipx_test_check_findings(prob, r, kinds, eps_v, buf, sizeof buf);
    if (bad) fprintf(stderr, "%s", buf);
    return bad == 0;
}

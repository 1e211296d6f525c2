/// ODE's messages as the adapter catches them (adapters/ode/src/messages.c): each kind is
/// reported once with its count and its first message with the arguments filled in (ODE hands
/// the handler a format and a va_list: the format alone printed "s=%.4e"), under the label of
/// the run that printed it. The formats are ODE 0.16.2's own: its Dantzig LCP solver's "LCP
/// internal error, s <= 0 (s=%.4e)", its heightfield collider's contact plane line (%d and
/// %.5e), and a real message of libode's (dMassCheck on a negative mass: "mass must be > 0 in
/// %s() [%s:%u]", its debug-message macro's form).
#define _POSIX_C_SOURCE 200809L
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"

static const char lcp_format[] = "LCP internal error, s <= 0 (s=%.4e)";
static const char plane_format[] =
    "Contact Plane (%d %d %d) %.5e %.5e (%.5e %.5e %.5e)(%.5e %.5e %.5e)).";

/* The report, as text (malloc'd). */
static char *report(long *total)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    *total = ipx_ode_report_messages(f, "impax ab: ");
    fclose(f);
    printf("%s", text);
    return text;
}

static void test_messages_are_formatted_counted_and_attributed(void)
{
    ipx_ode_label_messages("ode");
    for (int i = 0; i < 1000; i++) dMessage(3, lcp_format, -1.2e-17 * (i + 1));
    ipx_ode_label_messages("plus:e=0.5");
    dMessage(3, lcp_format, -2.5e-16);
    dMessage(0, plane_format, 1, 2, 3, 0.5, 0.25, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    dMass bad;
    dMassSetZero(&bad);
    bad.mass = -1;
    ENSURE(dMassCheck(&bad) == 0); /* libode itself prints "mass must be > 0 in ..." */
    ipx_ode_label_messages(NULL);
    long total;
    char *text = report(&total);
    ENSURE(total == 1003);
    ENSURE(strstr(text, "ODE printed 1003 messages") != NULL);
    /* one line for the thousand, its first values filled in, under its run */
    ENSURE(strstr(text, "impax ab:   ode: 1000 x LCP internal error, s <= 0 (s=-1.2000e-17) "
                        "(ODE message 3; the first shown)") != NULL);
    ENSURE(strstr(text, "plus:e=0.5: 1 x LCP internal error, s <= 0 (s=-2.5000e-16) "
                        "(ODE message 3)") != NULL);
    ENSURE(strstr(text, "1 x Contact Plane (1 2 3) 5.00000e-01 2.50000e-01 (1.00000e+00 "
                        "0.00000e+00 0.00000e+00)(0.00000e+00 0.00000e+00 1.00000e+00)).") != NULL);
    ENSURE(strstr(text, "plus:e=0.5: 1 x mass must be > 0 in dMassCheck() [mass.cpp:") != NULL);
    ENSURE(strchr(text, '%') == NULL); /* no format printed unfilled */
    free(text);
}

int main(void)
{
    dInitODE();
    ipx_ode_capture_messages(0);
    RUN(test_messages_are_formatted_counted_and_attributed);
    dCloseODE();
    return ipx_test_exit();
}

/* One BLAS thread inside impax's work (blas_threads.c; docs/ode-adapter.md "BLAS threads"). */
#ifndef IMPAX_ODE_BLAS_THREADS_H
#define IMPAX_ODE_BLAS_THREADS_H

/* Pins an OpenBLAS found in the process to one thread until the matching ipx_ode_blas_unpin;
   the outermost pin of the process saves the host's thread count and the last unpin restores
   it. Nests and may be called from any thread. No effect with another BLAS. */
void ipx_ode_blas_pin(void);
void ipx_ode_blas_unpin(void);

#endif

/// impax core: umbrella header. Engine-agnostic impact models; knows nothing of any host engine.
#ifndef IMPAX_IMPAX_H
#define IMPAX_IMPAX_H

#include "impax/types.h"
#include "impax/workspace.h"
#include "impax/registry.h"
#include "impax/validate.h"
#include "impax/problem.h"
#include "impax/problem_file.h"
#include "impax/check.h"
#include "impax/linalg.h"
#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "impax/rng.h"
#include "impax/bodies.h"
#include "impax/aplcp.h"
#include "impax/plus.h"
#include "impax/jia.h"
#include "impax/routh.h"
#include "impax/bowling.h"
#include "impax/gonthier.h"

#endif

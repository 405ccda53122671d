#include "searchparams.h"

#include <stdbool.h>
#include <string.h>

#ifdef GIZUM_SPSA
#define SEARCH_PARAM_DEFINE(name, def, min, max, step) int name = def;
SEARCH_PARAMS(SEARCH_PARAM_DEFINE)
#undef SEARCH_PARAM_DEFINE
#define SEARCH_PARAM_ROW(name, def, min, max, step) {#name, def, min, max, step, &name},
#else
#define SEARCH_PARAM_ROW(name, def, min, max, step) {#name, def, min, max, step},
#endif

const SearchParam SearchParams[] = {SEARCH_PARAMS(SEARCH_PARAM_ROW)};
const int SearchParamCount = sizeof SearchParams / sizeof SearchParams[0];

#ifdef GIZUM_SPSA
bool search_param_set(const char *name, int value) {
    for (int i = 0; i < SearchParamCount; i++) {
        const SearchParam *p = &SearchParams[i];
        if (strcmp(p->name, name) != 0) continue;
        *p->value = value < p->min ? p->min : value > p->max ? p->max : value;
        return true;
    }
    return false;
}
#endif

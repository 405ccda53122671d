#include "searcher.h"

#include <stdlib.h>

#include "search.h"
#include "thread.h"
#include "tt.h"

struct Searcher {
    TTable tt;
    ThreadPool *pool;
};

Searcher *searcher_create(int hashMB) {
    Searcher *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (!tt_resize(&s->tt, (size_t)hashMB, 1) || !(s->pool = threads_create(1, &s->tt))) {
        searcher_destroy(s);
        return NULL;
    }
    return s;
}

void searcher_destroy(Searcher *s) {
    if (!s) return;
    if (s->pool) threads_destroy(s->pool);
    tt_free(&s->tt);
    free(s);
}

void searcher_new_game(Searcher *s) {
    tt_clear(&s->tt, 1);
    threads_clear(s->pool);
}

/* The one call into the search: start, wait, read the result. */
void searcher_search(Searcher *s, const Position *pos, int depth, uint64_t nodes, SearcherResult *out) {
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    limits.nodes = nodes;
    SearchResult result = threads_search(s->pool, pos, &limits);
    out->best = result.bestMove;
    out->score = result.score;
}

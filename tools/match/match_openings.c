/*
 * gizum-match: opening positions.
 */
#include "match_openings.h"
#include "fen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "pgn.h"
#include "position.h"

/* Default depth of a random walk through a Polyglot book. */
static const int BOOK_DEFAULT_PLIES = 8;

/* Appends an opening to the suite. */
static bool add_opening(OpeningSuite *s, long *cap, const char *fen, const Move *moves, int count) {
    if (s->count == *cap) {
        long n = *cap ? *cap * 2 : 1024;
        Opening *grown = realloc(s->items, (size_t)n * sizeof *grown);
        if (!grown) return false;
        s->items = grown;
        *cap = n;
    }
    Opening *o = &s->items[s->count];
    o->fen = fen ? strdup(fen) : NULL;
    o->moveCount = count;
    o->moves = count ? malloc((size_t)count * sizeof *moves) : NULL;
    if ((fen && !o->fen) || (count && !o->moves)) return false;
    if (count) memcpy(o->moves, moves, (size_t)count * sizeof *moves);
    s->count++;
    return true;
}

/* True if text is a plain non-negative integer. */
static bool is_number(const char *text) {
    if (!*text) return false;
    for (; *text; text++)
        if (!isdigit((unsigned char)*text)) return false;
    return true;
}

/* Turns an EPD line into a FEN: four fields, then counters, hmvc/fmvn opcodes or "0 1". */
static bool epd_to_fen(const char *line, char *fen, size_t len) {
    char field[6][128];
    int n = 0;
    const char *p = line;
    while (n < 6) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '\n' || *p == '\r') break;
        size_t k = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != ';') {
            if (k + 1 < sizeof field[n]) field[n][k++] = *p;
            p++;
        }
        field[n][k] = '\0';
        n++;
        if (*p == ';') break;
    }
    if (n < 4) return false;
    const char *half = "0", *full = "1";
    if (n >= 6 && is_number(field[4]) && is_number(field[5])) {
        half = field[4];
        full = field[5];
    }
    char hm[16] = "", fm[16] = "";
    const char *op;
    if ((op = strstr(line, "hmvc ")) != NULL && sscanf(op + 5, "%15[0-9]", hm) == 1) half = hm;
    if ((op = strstr(line, "fmvn ")) != NULL && sscanf(op + 5, "%15[0-9]", fm) == 1) full = fm;
    snprintf(fen, len, "%s %s %s %s %s %s", field[0], field[1], field[2], field[3], half, full);
    return true;
}

/* Reads every valid EPD line of the file. */
static bool load_epd(OpeningSuite *s, Position *pos, char *err, size_t errlen) {
    char reason[512];
    FILE *f = file_open_read(s->cfg.file, NULL, reason, sizeof reason);
    if (!f) {
        snprintf(err, errlen, "-openings: %s", reason);
        return false;
    }
    char line[1024], fen[1024], why[128];
    long cap = 0, lineNo = 0, bad = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineNo++;
        const char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') continue;
        if (!epd_to_fen(p, fen, sizeof fen) || !pos_set_fen(pos, fen, s->chess960, why, sizeof why)) {
            if (bad++ < 3) fprintf(stderr, "Warning: %s:%ld: not a valid EPD position, skipped\n", s->cfg.file, lineNo);
            continue;
        }
        pos_get_fen(pos, fen);
        ok = add_opening(s, &cap, fen, NULL, 0);
    }
    fclose(f);
    if (bad > 3) fprintf(stderr, "Warning: %s: %ld invalid lines skipped in all\n", s->cfg.file, bad);
    if (!ok) snprintf(err, errlen, "out of memory reading '%s'", s->cfg.file);
    return ok;
}

/* Reads the first plies of every readable game of a PGN file. */
static bool load_pgn(OpeningSuite *s, char *err, size_t errlen) {
    PgnReader *r = pgn_open(s->cfg.file, err, errlen);
    if (!r) return false;
    PgnGame game;
    memset(&game, 0, sizeof game);
    long cap = 0, bad = 0;
    bool ok = true;
    PgnStatus st;
    while (ok && (st = pgn_next_game(r, &game)) != PGN_EOF) {
        if (st == PGN_BAD_GAME) {
            if (bad++ < 3) fprintf(stderr, "Warning: %s: game %d skipped: %s\n", s->cfg.file, game.number, game.error);
            continue;
        }
        int n = s->cfg.plies > 0 && s->cfg.plies < game.moveCount ? s->cfg.plies : game.moveCount;
        bool standard = !pgn_tag(&game, "FEN");
        ok = add_opening(s, &cap, standard ? NULL : game.fen, game.moves, n);
    }
    pgn_game_free(&game);
    pgn_close(r);
    if (bad > 3) fprintf(stderr, "Warning: %s: %ld unreadable games skipped in all\n", s->cfg.file, bad);
    if (!ok) snprintf(err, errlen, "out of memory reading '%s'", s->cfg.file);
    return ok;
}

/* Next number of a SplitMix64 generator. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

bool openings_load(OpeningSuite *s, const OpeningConfig *cfg, bool chess960, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->chess960 = chess960;
    if (!cfg->file) return true;
    if (cfg->format == OPENINGS_BOOK) {
        if (chess960) {
            snprintf(err, errlen, "Polyglot book openings are for standard chess only");
            return false;
        }
        if (s->cfg.plies <= 0) s->cfg.plies = BOOK_DEFAULT_PLIES;
        return book_open(&s->book, cfg->file, err, errlen);
    }
    Position *pos = malloc(sizeof *pos);
    if (!pos) return false;
    bool ok = cfg->format == OPENINGS_EPD ? load_epd(s, pos, err, errlen) : load_pgn(s, err, errlen);
    free(pos);
    if (ok && s->count == 0) {
        snprintf(err, errlen, "no usable opening in '%s'", cfg->file);
        ok = false;
    }
    if (ok) s->order = malloc((size_t)s->count * sizeof *s->order);
    if (ok && !s->order) ok = false;
    if (!ok) {
        openings_free(s);
        return false;
    }
    for (long i = 0; i < s->count; i++) s->order[i] = i;
    uint64_t rng = cfg->seed;
    for (long i = s->count - 1; cfg->random && i > 0; i--) {
        long j = (long)(next_random(&rng) % (uint64_t)(i + 1));
        long t = s->order[i];
        s->order[i] = s->order[j];
        s->order[j] = t;
    }
    return true;
}

/* A walk through the book from the start position, reproducible from the seed and n. */
static bool book_walk(const OpeningSuite *s, long n, Opening *out) {
    Position *pos = malloc(sizeof *pos);
    Move *moves = malloc((size_t)s->cfg.plies * sizeof *moves);
    if (!pos || !moves) {
        free(pos);
        free(moves);
        return false;
    }
    uint64_t rng = s->cfg.seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(n + 1));
    pos_set_startpos(pos, false);
    int count = 0;
    while (count < s->cfg.plies) {
        Move m = book_pick(&s->book, pos, false, &rng);
        if (m == MOVE_NONE) break;
        moves[count++] = m;
        pos_do_game_move(pos, m);
    }
    free(pos);
    out->fen = NULL;
    out->moves = moves;
    out->moveCount = count;
    return true;
}

bool openings_get(const OpeningSuite *s, long n, Opening *out) {
    memset(out, 0, sizeof *out);
    if (!s->cfg.file) return true;
    long index = n + (s->cfg.start > 0 ? s->cfg.start - 1 : 0);
    if (s->cfg.format == OPENINGS_BOOK) return book_walk(s, index, out);
    const Opening *o = &s->items[s->order[index % s->count]];
    out->fen = o->fen ? strdup(o->fen) : NULL;
    out->moveCount = o->moveCount;
    out->moves = o->moveCount ? malloc((size_t)o->moveCount * sizeof *o->moves) : NULL;
    if ((o->fen && !out->fen) || (o->moveCount && !out->moves)) {
        opening_free(out);
        return false;
    }
    if (o->moveCount) memcpy(out->moves, o->moves, (size_t)o->moveCount * sizeof *o->moves);
    return true;
}

void opening_free(Opening *o) {
    free(o->fen);
    free(o->moves);
    memset(o, 0, sizeof *o);
}

void openings_free(OpeningSuite *s) {
    for (long i = 0; i < s->count; i++) opening_free(&s->items[i]);
    free(s->items);
    free(s->order);
    book_close(&s->book);
    memset(s, 0, sizeof *s);
}

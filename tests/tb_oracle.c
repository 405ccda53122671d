/*
 * Helper of tests/test_syzygy_oracle.sh: Gizum's Syzygy prober against
 * Debian's fathom (an independent prober).
 *
 *   tb_oracle sample PATH PER_TABLE SEED      random legal positions of every table: "NAME|FEN" lines
 *   tb_oracle check PATH FILE                 FILE: "### NAME|FEN" lines, each followed by fathom's output
 *
 * sample: both colour orientations of each table, both sides to move, a
 * fifth with a random fifty-move counter, and for tables with pawns on
 * both sides a third set up with a capturable en-passant pawn. Positions
 * without legal moves are left out (fathom reports mate and stalemate in
 * its own way; tests/test_syzygy.c checks them).
 *
 * check: per position, fathom's WDL (which counts the FEN's fifty-move
 * counter) against tb_rank_root_moves' result, and when the counter is 0
 * against tb_probe_wdl; fathom's DTZ against |tb_probe_dtz|; fathom's
 * winning / drawing / losing move lists against the root ranking's
 * per-move results. Ends with one check per property in the suite's
 * "N passed, M failed" format and prints the agreement figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "init.h"
#include "movegen.h"
#include "notation.h"
#include "syzygy.h"
#include "test.h"

static Position Pos;

static uint64_t next_random(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static void print_message(void *ctx, const char *m) {
    (void)ctx;
    fprintf(stderr, "tb_oracle: %s\n", m);
}

/* ---------------------------------------------------------------- sampling */

/* Puts a piece on a random empty square (pawns on ranks 2-7). */
static void drop(char *board, char piece, uint64_t *rng) {
    bool pawn = piece == 'P' || piece == 'p';
    for (;;) {
        int s = (int)(next_random(rng) % 64);
        if (pawn && (s < 8 || s >= 56)) continue;
        if (board[s]) continue;
        board[s] = piece;
        return;
    }
}

/* A random legal position of the table's material (either colours), with moves; false if this try failed. */
static bool random_position(const char *name, uint64_t *rng, char *fen) {
    char sides[2][8] = {{0}};
    const char *v = strchr(name, 'v');
    if (!v || v - name > 7 || strlen(v + 1) > 7) return false;
    memcpy(sides[0], name, (size_t)(v - name));
    strcpy(sides[1], v + 1);
    bool swap = next_random(rng) & 1;
    Color stm = (next_random(rng) & 1) ? BLACK : WHITE;
    char board[64] = {0};
    char pieces[16];
    int n = 0;
    for (int s = 0; s < 2; s++)
        for (const char *c = sides[s]; *c; c++) {
            bool white = (s == 0) != swap;
            pieces[n++] = white ? *c : (char)(*c - 'A' + 'a');
        }
    /* En passant: the side not to move has just pushed a pawn two squares beside one of ours. */
    char ep[3] = "-";
    char ourPawn = stm == WHITE ? 'P' : 'p', theirPawn = stm == WHITE ? 'p' : 'P';
    char *ours = memchr(pieces, ourPawn, (size_t)n), *theirs = memchr(pieces, theirPawn, (size_t)n);
    if (ours && theirs && next_random(rng) % 3 == 0) {
        int f = (int)(next_random(rng) % 8), df = (next_random(rng) & 1) ? 1 : -1;
        if (f + df < 0 || f + df > 7) df = -df;
        int rank = stm == WHITE ? 4 : 3, dir = stm == WHITE ? 1 : -1;
        board[rank * 8 + f] = theirPawn;
        board[rank * 8 + f + df] = ourPawn;
        board[(rank + dir) * 8 + f] = '.'; /* kept empty: the squares the pawn crossed */
        board[(rank + 2 * dir) * 8 + f] = '.';
        ep[0] = (char)('a' + f);
        ep[1] = (char)('1' + rank + dir);
        ep[2] = '\0';
        *ours = *theirs = 0;
    }
    for (int i = 0; i < n; i++)
        if (pieces[i]) drop(board, pieces[i], rng);
    for (int s = 0; s < 64; s++)
        if (board[s] == '.') board[s] = 0;
    int rule50 = next_random(rng) % 5 == 0 ? 1 + (int)(next_random(rng) % 99) : 0;
    char placement[80];
    fen_placement(board, placement);
    snprintf(fen, 128, "%s %c - %s %d 1", placement, stm == WHITE ? 'w' : 'b', ep, rule50);
    char err[256];
    if (!pos_set_fen(&Pos, fen, false, err, sizeof err)) return false;
    if (ep[0] != '-' && Pos.st->epSquare == SQ_NONE) return false;
    if (count_legal(&Pos) == 0) return false;
    pos_get_fen(&Pos, fen); /* Gizum's spelling (en passant only when capturable) */
    return true;
}

static int run_sample(const char *path, int perTable, uint64_t seed) {
    TbSummary s = tb_init(path, print_message, NULL);
    if (s.wdlTables == 0) {
        fprintf(stderr, "tb_oracle: no tables in %s\n", path);
        return 1;
    }
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int t = 0; tb_table_name(t); t++) {
        const char *name = tb_table_name(t);
        int made = 0;
        for (int tries = 0; made < perTable && tries < perTable * 1000; tries++) {
            char fen[128];
            if (!random_position(name, &rng, fen)) continue;
            printf("%s|%s\n", name, fen);
            made++;
        }
        if (made < perTable) fprintf(stderr, "tb_oracle: only %d positions for %s\n", made, name);
    }
    tb_free();
    return 0;
}

/* ---------------------------------------------------------------- checking */

/* A move of fathom's SAN ("Kb1", "Na1b3", "dxe3", "d1=Q"), matched leniently against the legal moves. */
static Move parse_fathom_move(const Position *pos, const char *text) {
    char t[16];
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof t; c++)
        if (*c != '+' && *c != '#' && *c != 'x') t[n++] = *c;
    t[n] = '\0';
    PieceType promo = NO_PIECE_TYPE;
    char *eq = strchr(t, '=');
    if (eq) {
        const char *Promo = "NBRQ", *at = strchr(Promo, eq[1]);
        if (!eq[1] || !at) return MOVE_NONE;
        promo = (PieceType)(KNIGHT + (at - Promo));
        *eq = '\0';
        n = strlen(t);
    }
    PieceType pt = PAWN;
    const char *Pieces = "NBRQK", *at = n ? strchr(Pieces, t[0]) : NULL;
    const char *rest = t;
    if (at && t[0]) {
        pt = (PieceType)(KNIGHT + (at - Pieces));
        rest++;
    }
    size_t len = strlen(rest);
    if (len < 2) return MOVE_NONE;
    Square to = square_from_text(rest + len - 2);
    if (to == SQ_NONE) return MOVE_NONE;
    int fromFile = -1, fromRank = -1;
    for (size_t i = 0; i + 2 < len; i++) {
        if (rest[i] >= 'a' && rest[i] <= 'h') fromFile = rest[i] - 'a';
        else if (rest[i] >= '1' && rest[i] <= '8') fromRank = rest[i] - '1';
        else return MOVE_NONE;
    }
    MoveList legal;
    gen_legal(pos, &legal);
    Move found = MOVE_NONE;
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        Square from = move_from(m);
        if (move_to(m) != to || piece_type(pos_piece_on(pos, from)) != pt) continue;
        if ((move_kind(m) == MOVE_PROMOTION ? move_promotion(m) : NO_PIECE_TYPE) != promo) continue;
        if ((fromFile >= 0 && file_of(from) != fromFile) || (fromRank >= 0 && rank_of(from) != fromRank)) continue;
        if (found != MOVE_NONE) return MOVE_NONE; /* ambiguous */
        found = m;
    }
    return found;
}

/* Parses a fathom move list into set[move] = class; false if a move does not parse. */
static bool parse_move_list(const Position *pos, const char *list, int cls, int *classOf) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
        Move m = parse_fathom_move(pos, tok);
        if (m == MOVE_NONE) return false;
        classOf[m] = cls;
    }
    return true;
}

static int wdl_from_name(const char *s) {
    static const char *const Names[5] = {"Loss", "BlessedLoss", "Draw", "CursedWin", "Win"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, Names[i]) == 0) return i - 2;
    return 99;
}

/* The value of [Tag "value"] in line, or NULL. */
static const char *tag_value(const char *line, const char *tag, char *out, size_t outlen) {
    size_t t = strlen(tag);
    if (line[0] != '[' || strncmp(line + 1, tag, t) != 0 || line[1 + t] != ' ' || line[2 + t] != '"') return NULL;
    const char *start = line + t + 3, *end = strrchr(start, '"');
    if (!end) return NULL;
    size_t n = (size_t)(end - start) < outlen - 1 ? (size_t)(end - start) : outlen - 1;
    memcpy(out, start, n);
    out[n] = '\0';
    return out;
}

typedef struct {
    char name[32], fen[128];
    char wdl[32], dtz[16], win[4096], draw[4096], loss[4096];
    bool error;
} FathomBlock;

typedef struct {
    int positions, skipped, wdlAgree, wdlRule50Agree, wdlRule50Positions, dtzAgree, movesAgree, epPositions,
        counterPositions, failed;
} Tally;

enum { MAX_TABLES = 2048, MISMATCHES_SHOWN = 25 };
static char TableNames[MAX_TABLES][32];
static int TableSeen[MAX_TABLES], TableBad[MAX_TABLES], TableCount;
static int Shown;

static void mismatch(const FathomBlock *b, const char *fmt, const char *detail) {
    if (Shown++ >= MISMATCHES_SHOWN) return;
    fprintf(stderr, "MISMATCH %s %s: ", b->name, b->fen);
    fprintf(stderr, fmt, detail);
    fputc('\n', stderr);
}

static int table_slot(const char *name) {
    for (int i = 0; i < TableCount; i++)
        if (strcmp(TableNames[i], name) == 0) return i;
    if (TableCount == MAX_TABLES) return MAX_TABLES - 1;
    snprintf(TableNames[TableCount], sizeof TableNames[0], "%s", name);
    return TableCount++;
}

static void check_block(const FathomBlock *b, Tally *t) {
    char err[256], text[256];
    int slot = table_slot(b->name);
    if (!pos_set_fen(&Pos, b->fen, false, err, sizeof err) || count_legal(&Pos) == 0) {
        t->skipped++;
        return;
    }
    t->positions++;
    TableSeen[slot]++;
    if (Pos.st->epSquare != SQ_NONE) t->epPositions++;
    if (pos_rule50(&Pos) > 0) t->counterPositions++;
    bool ok = true;
    if (b->error) {
        mismatch(b, "%s", "fathom could not probe it");
        TableBad[slot]++;
        t->failed++;
        return;
    }
    TbRootMoves r;
    TbWdl plain;
    int dtz;
    bool probed = tb_rank_root_moves(&Pos, true, &r) && r.byDtz && tb_probe_wdl(&Pos, &plain) && tb_probe_dtz(&Pos, &dtz);
    if (!probed) {
        mismatch(b, "%s", "Gizum could not probe it");
        TableBad[slot]++;
        t->failed++;
        return;
    }
    int fathomWdl = wdl_from_name(b->wdl);
    if ((int)r.wdl == fathomWdl) t->wdlAgree++;
    else {
        snprintf(text, sizeof text, "WDL fathom %s, Gizum %s", b->wdl, tb_wdl_name(r.wdl));
        mismatch(b, "%s", text);
        ok = false;
    }
    if (pos_rule50(&Pos) == 0) {
        t->wdlRule50Positions++;
        if ((int)plain == fathomWdl) t->wdlRule50Agree++;
        else {
            snprintf(text, sizeof text, "tb_probe_wdl %s, fathom %s", tb_wdl_name(plain), b->wdl);
            mismatch(b, "%s", text);
            ok = false;
        }
    }
    if (atoi(b->dtz) == abs(dtz)) t->dtzAgree++;
    else {
        snprintf(text, sizeof text, "DTZ fathom %s, Gizum %d", b->dtz, dtz);
        mismatch(b, "%s", text);
        ok = false;
    }
    static int classOf[1 << 16];
    memset(classOf, 0, sizeof classOf);
    bool parsed = parse_move_list(&Pos, b->win, 1, classOf) && parse_move_list(&Pos, b->draw, 2, classOf) &&
                  parse_move_list(&Pos, b->loss, 3, classOf);
    bool same = parsed;
    for (int i = 0; i < r.count && same; i++) {
        TbWdl w = r.moves[i].wdl;
        int cls = w == TB_WIN ? 1 : w == TB_LOSS ? 3 : 2;
        if (classOf[r.moves[i].move] != cls) {
            char san[16];
            move_to_san(&Pos, r.moves[i].move, san);
            snprintf(text, sizeof text, "move %s: fathom class %d, Gizum %s (dtz %d)", san, classOf[r.moves[i].move],
                     tb_wdl_name(w), r.moves[i].dtz);
            mismatch(b, "%s", text);
            same = false;
        }
        classOf[r.moves[i].move] = 0;
    }
    for (int m = 0; m < (1 << 16) && same; m++)
        if (classOf[m]) {
            mismatch(b, "%s", "fathom lists a move Gizum does not rank");
            same = false;
        }
    if (!parsed) mismatch(b, "%s", "a fathom move does not parse");
    if (same) t->movesAgree++;
    else ok = false;
    if (!ok) {
        TableBad[slot]++;
        t->failed++;
    }
}

static int run_check(const char *path, const char *file) {
    TbSummary s = tb_init(path, print_message, NULL);
    FILE *in = fopen(file, "r");
    if (!in) {
        fprintf(stderr, "tb_oracle: cannot open %s\n", file);
        return 1;
    }
    Tally t = {0};
    FathomBlock b;
    bool open = false;
    static char line[16384];
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "### ", 4) == 0) {
            if (open) check_block(&b, &t);
            memset(&b, 0, sizeof b);
            open = true;
            const char *bar = strchr(line + 4, '|');
            if (!bar) {
                open = false;
                continue;
            }
            snprintf(b.name, sizeof b.name, "%.*s", (int)(bar - line - 4), line + 4);
            snprintf(b.fen, sizeof b.fen, "%s", bar + 1);
            b.error = true;
            continue;
        }
        if (!open) continue;
        if (tag_value(line, "WDL", b.wdl, sizeof b.wdl)) b.error = false;
        tag_value(line, "DTZ", b.dtz, sizeof b.dtz);
        tag_value(line, "WinningMoves", b.win, sizeof b.win);
        tag_value(line, "DrawingMoves", b.draw, sizeof b.draw);
        tag_value(line, "LosingMoves", b.loss, sizeof b.loss);
    }
    if (open) check_block(&b, &t);
    fclose(in);

    int tablesCovered = 0, tablesClean = 0;
    for (int i = 0; tb_table_name(i); i++) {
        int slot = table_slot(tb_table_name(i));
        tablesCovered += TableSeen[slot] > 0;
        tablesClean += TableSeen[slot] > 0 && TableBad[slot] == 0;
    }
    printf("oracle: %d positions over %d of %d tables (%d with en passant, %d with a fifty-move counter; %d without "
           "moves skipped)\n",
           t.positions, tablesCovered, s.wdlTables, t.epPositions, t.counterPositions, t.skipped);
    printf("oracle: WDL with counter %d/%d, tb_probe_wdl %d/%d, DTZ %d/%d, move classes %d/%d agree with fathom\n",
           t.wdlAgree, t.positions, t.wdlRule50Agree, t.wdlRule50Positions, t.dtzAgree, t.positions, t.movesAgree,
           t.positions);
    CHECK(t.positions > 0, "no positions checked");
    CHECK(tablesCovered == s.wdlTables && s.wdlTables > 0, "only %d of %d tables sampled", tablesCovered, s.wdlTables);
    CHECK(tablesClean == tablesCovered, "%d tables with disagreements", tablesCovered - tablesClean);
    CHECK(t.wdlAgree == t.positions, "WDL (with counter) disagrees in %d positions", t.positions - t.wdlAgree);
    CHECK(t.wdlRule50Agree == t.wdlRule50Positions, "tb_probe_wdl disagrees in %d positions",
          t.wdlRule50Positions - t.wdlRule50Agree);
    CHECK(t.dtzAgree == t.positions, "DTZ disagrees in %d positions", t.positions - t.dtzAgree);
    CHECK(t.movesAgree == t.positions, "move classes disagree in %d positions", t.positions - t.movesAgree);
    CHECK(t.epPositions > 0, "no en-passant positions sampled");
    CHECK(t.counterPositions > 0, "no positions with a fifty-move counter sampled");
    tb_free();
    return test_report();
}

int main(int argc, char **argv) {
    engine_init();
    if (argc == 5 && strcmp(argv[1], "sample") == 0) return run_sample(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 10));
    if (argc == 4 && strcmp(argv[1], "check") == 0) return run_check(argv[2], argv[3]);
    fprintf(stderr, "usage: tb_oracle sample PATH PER_TABLE SEED | tb_oracle check PATH FILE\n");
    return 2;
}

/*
 * `./gizum book ...`: building Polyglot books from PGN, probing and dumping.
 */
#include "bookmaker.h"
#include "fen.h"

#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "movegen.h"
#include "notation.h"
#include "pgn.h"
#include "progress.h"

/* Polyglot make-book's default ply limit. */
enum { BOOK_DEFAULT_MAX_PLY = 1024 };
/* Skipped games reported one by one before only counting the rest. */
enum { BOOK_MAX_REPORTED_GAMES = 20 };
/* Scores of a game move by result, from the mover's side: Polyglot's 2 * wins + draws. */
enum { SCORE_LOSS = 0, SCORE_DRAW = 1, SCORE_WIN = 2 };
enum { ERR_SIZE = 512, FEN_SIZE = 512 };

/* Polyglot make-book's defaults. */
BookMakeOptions bookmaker_options_default(void) {
    BookMakeOptions o = {.maxPly = BOOK_DEFAULT_MAX_PLY, .filter = book_filter_default(), .strict = false,
                         .quiet = false};
    return o;
}

/* The score of a move by mover in a game with this result (unknown counts as a draw, as in Polyglot). */
static int move_score(PgnResult result, Color mover) {
    if (result == PGN_WHITE_WINS) return mover == WHITE ? SCORE_WIN : SCORE_LOSS;
    if (result == PGN_BLACK_WINS) return mover == BLACK ? SCORE_WIN : SCORE_LOSS;
    return SCORE_DRAW;
}

/* Adds the first maxPly moves of a game to the builder. */
static bool add_game(BookBuilder *builder, const PgnGame *game, int maxPly, Position *pos) {
    if (!pgn_game_position(game, 0, pos)) return true; /* cannot happen: the reader checked the FEN */
    for (int ply = 0; ply < game->moveCount && ply < maxPly; ply++) {
        Color mover = pos_side_to_move(pos);
        if (!book_builder_add(builder, pos_key(pos), game->moves[ply], mover, move_score(game->result, mover)))
            return false;
        pos_do_game_move(pos, game->moves[ply]);
    }
    return true;
}

/* Feeds every game of one PGN file to the builder; false on a fatal error. */
static bool add_file(BookBuilder *builder, const char *path, const BookMakeOptions *options, BookMakeStats *stats,
                     Position *pos, FILE *log, Progress *progress, char *err, size_t errlen) {
    PgnReader *reader = pgn_open(path, err, errlen);
    if (!reader) return false;
    PgnGame game = {0};
    PgnStatus status;
    bool ok = true;
    while (ok && (status = pgn_next_game(reader, &game)) != PGN_EOF) {
        stats->games++;
        progress_show(progress, false, "book make: %s: %ld games read, %zu position-move pairs", path, stats->games,
                      book_builder_size(builder));
        if (status == PGN_BAD_GAME) {
            stats->skipped++;
            if (options->strict) {
                snprintf(err, errlen, "%s", game.error);
                ok = false;
            } else if (log && !options->quiet && stats->skipped <= BOOK_MAX_REPORTED_GAMES) {
                progress_clear(progress);
                fprintf(log, "skipped: %s\n", game.error);
            }
            continue;
        }
        if (!add_game(builder, &game, options->maxPly, pos)) {
            snprintf(err, errlen, "out of memory after %zu book entries", book_builder_size(builder));
            ok = false;
        }
    }
    pgn_game_free(&game);
    pgn_close(reader);
    return ok;
}

/* Accumulates every readable game of every file, then writes the book. */
bool bookmaker_make(const char *const *pgnFiles, int fileCount, const char *out, const BookMakeOptions *options,
                    BookMakeStats *stats, FILE *log, char *err, size_t errlen) {
    *stats = (BookMakeStats){.games = 0, .skipped = 0, .pairs = 0, .written = -1};
    BookBuilder *builder = book_builder_new();
    Position *pos = malloc(sizeof *pos);
    bool ok = builder && pos;
    if (!ok) snprintf(err, errlen, "out of memory");
    Progress progress;
    progress_init(&progress);
    for (int i = 0; ok && i < fileCount; i++)
        ok = add_file(builder, pgnFiles[i], options, stats, pos, log, &progress, err, errlen);
    progress_clear(&progress);
    if (ok && log && stats->skipped > BOOK_MAX_REPORTED_GAMES)
        fprintf(log, "skipped: %ld more games not listed\n", stats->skipped - BOOK_MAX_REPORTED_GAMES);
    if (ok) {
        stats->pairs = book_builder_size(builder);
        stats->written = book_builder_write(builder, &options->filter, out, err, errlen);
        ok = stats->written >= 0;
    }
    free(pos);
    book_builder_free(builder);
    return ok;
}

/* Parses a non-negative integer option value; false if it is not one. */
static bool parse_count(const char *text, int *out) {
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 0 || v > 1000000000L) return false;
    *out = (int)v;
    return true;
}

/* Prints the synopsis of `book make`. */
static void usage_make(void) {
    fprintf(stderr, "usage: gizum book make --pgn FILE... --out FILE.bin [--max-ply N] [--min-games N]\n"
                    "                       [--only-white|--only-black] [--strict] [--quiet]\n");
}

/* ./gizum book make --pgn FILE... --out FILE.bin [options] */
/* What `book make` was asked to do. files points into argv. */
typedef struct {
    BookMakeOptions options;
    const char **files;
    int fileCount;
    const char *out;
} MakeRequest;

/* Parses `book make` arguments into req; on a fault prints why (with the usage) and returns false. */
static bool parse_make_args(int argc, char **argv, MakeRequest *req) {
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool bad = false;
        if (strcmp(a, "--pgn") == 0) {
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
                req->files[req->fileCount++] = argv[++i];
            bad = req->fileCount == 0;
        } else if (strcmp(a, "--out") == 0) {
            bad = !value;
            req->out = value;
            i++;
        } else if (strcmp(a, "--max-ply") == 0) {
            bad = !value || !parse_count(value, &req->options.maxPly);
            i++;
        } else if (strcmp(a, "--min-games") == 0) {
            bad = !value || !parse_count(value, &req->options.filter.minGames) || req->options.filter.minGames < 1;
            i++;
        } else if (strcmp(a, "--only-white") == 0) {
            req->options.filter.onlyWhite = true;
        } else if (strcmp(a, "--only-black") == 0) {
            req->options.filter.onlyBlack = true;
        } else if (strcmp(a, "--strict") == 0) {
            req->options.strict = true;
        } else if (strcmp(a, "--quiet") == 0) {
            req->options.quiet = true;
        } else {
            fprintf(stderr, "book make: unknown option '%s'\n", a);
            usage_make();
            return false;
        }
        if (bad) {
            fprintf(stderr, "book make: option '%s' needs a valid value\n", a);
            usage_make();
            return false;
        }
    }
    const BookFilter *f = &req->options.filter;
    if (req->fileCount == 0 || !req->out || (f->onlyWhite && f->onlyBlack)) {
        fprintf(stderr, "book make: %s\n", req->fileCount == 0 ? "no --pgn file given"
                                           : !req->out      ? "no --out file given"
                                                            : "--only-white and --only-black exclude each other");
        usage_make();
        return false;
    }
    return true;
}

/* Builds the book a parsed request asks for and reports what went into it. */
static int make_book(const MakeRequest *req) {
    BookMakeStats stats;
    char err[ERR_SIZE];
    /* Said before the PGN is read, not after: the book is written at the end. */
    if (!file_write_check(req->out, err, sizeof err)) {
        fprintf(stderr, "book make: %s\n", err);
        return 1;
    }
    if (!bookmaker_make(req->files, req->fileCount, req->out, &req->options, &stats, stderr, err, sizeof err)) {
        fprintf(stderr, "book make: %s\n", err);
        return 1;
    }
    printf("%ld games read, %ld skipped, %zu position-move pairs, %ld entries written to %s\n", stats.games,
           stats.skipped, stats.pairs, stats.written, req->out);
    if (stats.written == 0)
        fprintf(stderr, "book make: warning: the book is empty (every move was played in fewer than %d games?)\n",
                req->options.filter.minGames);
    return 0;
}

static int command_make(int argc, char **argv) {
    MakeRequest req = {.options = bookmaker_options_default()};
    req.files = calloc((size_t)argc + 1, sizeof *req.files);
    if (!req.files) {
        fprintf(stderr, "book make: out of memory\n");
        return 1;
    }
    int status = parse_make_args(argc, argv, &req) ? make_book(&req) : 2;
    free(req.files);
    return status;
}

/* Sets pos from "[FEN...] [moves M...]" arguments (none: the start position). */
static bool position_from_args(Position *pos, int argc, char **argv, char *err, size_t errlen) {
    char fen[FEN_SIZE] = "", detail[ERR_SIZE / 2];
    int i = 0;
    for (; i < argc && strcmp(argv[i], "moves") != 0; i++) {
        if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen) {
            snprintf(err, errlen, "FEN too long");
            return false;
        }
        if (i > 0) strcat(fen, " ");
        strcat(fen, argv[i]);
    }
    if (fen[0] == '\0' || strcmp(fen, "startpos") == 0)
        pos_set_startpos(pos, false);
    else if (!pos_set_fen(pos, fen, false, detail, sizeof detail)) {
        snprintf(err, errlen, "bad FEN: %s", detail);
        return false;
    }
    for (i++; i < argc; i++) {
        Move m = move_from_uci(pos, argv[i]);
        if (m == MOVE_NONE) m = move_from_san(pos, argv[i]);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "illegal move '%s'", argv[i]);
            return false;
        }
        pos_do_game_move(pos, m);
    }
    return true;
}

/* ./gizum book probe FILE.bin [FEN] [moves M...]: the book moves with weights and shares. */
static int command_probe(int argc, char **argv) {
    if (argc < 1) {
        fprintf(stderr, "usage: gizum book probe FILE.bin [FEN | startpos] [moves M...]\n");
        return 2;
    }
    static Position pos;
    static Book book;
    char err[ERR_SIZE];
    if (!position_from_args(&pos, argc - 1, argv + 1, err, sizeof err)) {
        fprintf(stderr, "book probe: %s\n", err);
        return 2;
    }
    if (!book_open(&book, argv[0], err, sizeof err)) {
        fprintf(stderr, "book probe: %s\n", err);
        return 1;
    }
    char fen[FEN_SIZE];
    pos_get_fen(&pos, fen);
    printf("book: %s (%zu entries)\nfen: %s\nkey: %016llx\n", argv[0], book.count, fen,
           (unsigned long long)pos_key(&pos));
    BookMove moves[MAX_MOVES];
    int n = book_probe(&book, &pos, moves, MAX_MOVES);
    const BookEntry *first;
    size_t stored = book_entries_for_key(&book, pos_key(&pos), &first);
    long total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    if (n == 0) printf("out of book\n");
    for (int i = 0; i < n; i++) {
        char uci[8], san[16];
        move_to_uci(moves[i].move, pos.chess960, uci);
        move_to_san(&pos, moves[i].move, san);
        printf("%-6s %-8s weight %5d  %6.2f%%\n", uci, san, moves[i].weight,
               total ? 100.0 * moves[i].weight / (double)total : 0.0);
    }
    if (stored > (size_t)n) printf("%zu stored entries are not legal moves here (ignored)\n", stored - (size_t)n);
    book_close(&book);
    return 0;
}

/* ./gizum book dump FILE.bin: every entry as "key move weight learn". */
static int command_dump(int argc, char **argv) {
    if (argc != 1) {
        fprintf(stderr, "usage: gizum book dump FILE.bin\n");
        return 2;
    }
    static Book book;
    char err[ERR_SIZE];
    if (!book_open(&book, argv[0], err, sizeof err)) {
        fprintf(stderr, "book dump: %s\n", err);
        return 1;
    }
    for (size_t i = 0; i < book.count; i++) {
        char move[8];
        book_code_to_text(book.entries[i].move, move);
        printf("%016llx %-5s %5u %u\n", (unsigned long long)book.entries[i].key, move, book.entries[i].weight,
               book.entries[i].learn);
    }
    book_close(&book);
    return 0;
}

/* Dispatches `book make|probe|dump`. */
int bookmaker_command(int argc, char **argv) {
    if (argc >= 1 && strcmp(argv[0], "make") == 0) return command_make(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "probe") == 0) return command_probe(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "dump") == 0) return command_dump(argc - 1, argv + 1);
    bookmaker_usage(stderr);
    return 2;
}

void bookmaker_usage(FILE *out) {
    fprintf(out, "usage: gizum book make --pgn FILE... --out FILE.bin [--max-ply N] [--min-games N]\n"
                 "                       [--only-white|--only-black] [--strict] [--quiet]\n"
                 "       gizum book probe FILE.bin [FEN | startpos] [moves M...]\n"
                 "       gizum book dump FILE.bin\n");
}

/*
 * The opening book through UCI (env GIZUM): OwnBook answers at once with a
 * legal book move, BookBestMove picks the heaviest, BookDepth and pondering
 * fall back to searching, and a missing or broken BookFile is reported
 * while play goes on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "fen.h"
#include "init.h"
#include "notation.h"
#include "test.h"
#include "uci_session.h"

enum { TIMEOUT = 5000 };
static const char *const BookPath = "books/gizum.bin";

/* The heaviest legal book move at the start position after the given UCI moves. */
static void heaviest_book_move(const Book *book, const char *moves, char *out) {
    static Position pos;
    char buf[256];
    pos_set_startpos(&pos, false);
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) pos_do_game_move(&pos, move_from_uci(&pos, tok));
    BookMove best;
    move_to_uci(book_probe(book, &pos, &best, 1) ? best.move : MOVE_NONE, false, out);
}

static bool start(Session *s) {
    if (!session_open(s)) return false;
    session_send(s, "uci\n");
    return session_expect(s, "uciok", TIMEOUT) != NULL;
}

int main(void) {
    engine_init();
    static Session s;
    static Book book;
    char err[256], expected[8];
    CHECK(book_open(&book, BookPath, err, sizeof err), "cannot open %s: %s", BookPath, err);
    heaviest_book_move(&book, "e2e4", expected);

    CHECK(start(&s), "engine did not start");
    const char *opt = session_last(&s, "option name BookFile");
    CHECK(opt && strstr(opt, "gizum.bin"), "BookFile default should be Gizum's own book: %s", opt ? opt : "(none)");
    CHECK(session_count(&s, "option name OwnBook type check default false") == 1, "OwnBook must default to false");

    /* Off by default: a search answers. */
    session_send(&s, "position startpos moves e2e4\ngo depth 3\n");
    CHECK(session_expect(&s, "bestmove", TIMEOUT) && session_count(&s, "info depth") > 0, "without OwnBook Gizum searches");

    session_forget(&s);
    session_send(&s, "setoption name BookBestMove value true\nsetoption name OwnBook value true\n");
    session_send(&s, "position startpos moves e2e4\ngo wtime 60000 btime 60000\n");
    const char *best = session_expect(&s, "bestmove", TIMEOUT);
    char want[32];
    snprintf(want, sizeof want, "bestmove %s", expected);
    CHECK(best && strcmp(best, want) == 0, "BookBestMove: got '%s', want '%s'", best ? best : "(none)", want);
    CHECK(session_count(&s, "info string book move") == 1 && session_count(&s, "info depth") == 0,
          "a book move is announced and played without searching");

    /* Weighted choice: every answer over several tries is a legal book move. */
    session_send(&s, "setoption name BookBestMove value false\n");
    int bookAnswers = 0;
    for (int i = 0; i < 10; i++) {
        session_forget(&s);
        session_send(&s, "position startpos\ngo movetime 1000\n");
        best = session_expect(&s, "bestmove", TIMEOUT);
        static Position start;
        pos_set_startpos(&start, false);
        BookMove moves[64];
        int n = book_probe(&book, &start, moves, 64);
        for (int j = 0; best && j < n; j++) {
            char text[8];
            move_to_uci(moves[j].move, false, text);
            bookAnswers += strcmp(best + 9, text) == 0;
        }
    }
    CHECK(bookAnswers == 10, "weighted book choice: %d of 10 answers were book moves", bookAnswers);

    /* Beyond BookDepth, and when pondering, Gizum searches. */
    session_forget(&s);
    session_send(&s, "setoption name BookDepth value 1\nposition startpos moves e2e4 c7c5\ngo depth 2\n");
    CHECK(session_expect(&s, "bestmove", TIMEOUT) && session_count(&s, "info string book move") == 0,
          "BookDepth 1: no book move at move 2");
    session_forget(&s);
    session_send(&s, "setoption name BookDepth value 20\nposition startpos\ngo ponder wtime 1000 btime 1000\n");
    CHECK(session_quiet(&s, "bestmove", 300), "no bestmove before ponderhit, book or not");
    session_send(&s, "stop\n");
    CHECK(session_expect(&s, "bestmove", TIMEOUT) && session_count(&s, "info string book move") == 0,
          "pondering searches instead of playing from the book");

    /* Bad books: a message, then plain searching. */
    session_forget(&s);
    session_send(&s, "setoption name BookFile value /nonexistent/book.bin\nposition startpos\ngo depth 2\n");
    CHECK(session_expect(&s, "bestmove", TIMEOUT) && session_count(&s, "info string BookFile") == 1,
          "a missing book is reported");
    CHECK(session_count(&s, "info depth") > 0, "without a usable book Gizum searches");
    session_forget(&s);
    session_send(&s, "setoption name BookFile value README.md\nisready\n");
    CHECK(session_expect(&s, "readyok", TIMEOUT) && session_count(&s, "info string BookFile") == 1,
          "a file that is not a book is reported");
    session_send(&s, "quit\n");
    CHECK(session_close(&s, TIMEOUT) == 0, "engine did not exit cleanly");
    book_close(&book);
    return test_report();
}

/*
 * The functions that judge moves without the move generator, each compared
 * with gen_legal's list at one position: pos_is_legal (TT, killer and book
 * moves), pos_gives_check and SAN both ways. Each records its failures in a
 * Property (tests/test.h), so a caller counts one check per property over
 * as many positions as it likes. Board layer only.
 */
#ifndef GIZUM_TEST_MOVE_CHECKS_H
#define GIZUM_TEST_MOVE_CHECKS_H

#include <string.h>

#include "epd.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "test.h"

/* pos_is_legal(v) holds exactly for the listed moves, over all 65536 values. */
static inline void expect_is_legal_exact(const Position *pos, const MoveList *legal, Property *p) {
    static uint8_t listed[65536 / 8];
    char fen[128], uci[8];
    memset(listed, 0, sizeof listed);
    for (int i = 0; i < legal->count; i++) listed[legal->moves[i] >> 3] |= (uint8_t)(1 << (legal->moves[i] & 7));
    int wrong = 0;
    unsigned first = 0;
    for (unsigned v = 0; v < 65536; v++)
        if (pos_is_legal(pos, (Move)v) != ((listed[v >> 3] >> (v & 7)) & 1) && wrong++ == 0) first = v;
    if (!wrong) return;
    move_to_uci((Move)first, pos->chess960, uci);
    EXPECT(p, false, "pos_is_legal is wrong on %d of 65536 values at %s, first 0x%04x (%s, kind %d, promotion bits %u): "
           "%s by the generator", wrong, fen_of(pos, fen), first, uci, move_kind((Move)first) >> 14,
           (first >> 12) & 3, (listed[first >> 3] >> (first & 7)) & 1 ? "listed" : "not listed");
}

/* pos_gives_check(m) tells whether playing m checks. */
static inline void expect_gives_check(Position *pos, const MoveList *legal, Property *p) {
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        bool said = pos_gives_check(pos, m);
        pos_do_move(pos, m);
        bool checks = pos_in_check(pos);
        pos_undo_move(pos);
        if (said == checks) continue;
        char fen[128], uci[8];
        move_to_uci(m, pos->chess960, uci);
        EXPECT(p, false, "pos_gives_check(%s) is %d but the move %s check at %s", uci, said,
               checks ? "gives" : "does not give", fen_of(pos, fen));
    }
}

/*
 * Every move's SAN reads back as that move, and no two moves share a SAN
 * (so no other move can read as it). sans (MAX_MOVES entries, may be NULL)
 * receives the SANs in list order.
 */
static inline void expect_san_round_trip(Position *pos, const MoveList *legal, char (*sans)[16], Property *back,
                                         Property *distinct) {
    static char own[MAX_MOVES][16];
    char fen[128];
    if (!sans) sans = own;
    fen_of(pos, fen);
    for (int i = 0; i < legal->count; i++) {
        memset(sans[i], 0, 16);
        move_to_san(pos, legal->moves[i], sans[i]);
        Move read = move_from_san(pos, sans[i]);
        EXPECT(back, read == legal->moves[i], "SAN round trip at %s: '%s' read back as %d, expected %d", fen, sans[i],
               read, legal->moves[i]);
    }
    for (int i = 0; i < legal->count; i++)
        for (int j = i + 1; j < legal->count; j++)
            EXPECT(distinct, strcmp(sans[i], sans[j]) != 0, "moves %d and %d share SAN '%s' at %s", legal->moves[i],
                   legal->moves[j], sans[i], fen);
}

#endif

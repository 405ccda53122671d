/*
 * Staged move picker: hands out the legal moves of a position one at a
 * time, most promising first, generating each group only when needed.
 *
 *   main search: TT move, good captures/promotions (SEE >= 0, by MVV and
 *                capture history), killer 1, killer 2, counter move, quiet
 *                moves by history, losing captures and under-promotions
 *   in check:    TT move, then every evasion (captures first, then by history)
 *   quiescence:  TT move if it is noisy, then captures and promotions
 *
 * Every legal move of the position (of the noisy set in quiescence) is
 * returned exactly once. Once the caller sets skipQuiets (late move or
 * futility pruning), quiet moves that do not give check are left out.
 */
#ifndef GIZUM_MOVEPICK_H
#define GIZUM_MOVEPICK_H

#include "history.h"
#include "movegen.h"
#include "position.h"

typedef struct {
    Move move;
    int score;
} ScoredMove;

typedef struct {
    const Position *pos;
    const Histories *hist;
    const PieceToHistory *cont[CONT_PLIES]; /* continuation tables (history.h), or NULL */
    Bitboard threats;               /* squares the enemy attacks (quiet moves' butterfly table) */
    Move ttMove, killers[2], counter;
    Move played[4];                 /* special moves already returned, skipped later */
    int playedCount;
    int stage;
    int count, index;
    int badCount, badIndex;
    bool skipQuiets;                /* set by the search: from now on quiet moves only if they check */
    ScoredMove moves[MAX_MOVES];
    ScoredMove bad[MAX_MOVES];
} MovePicker;

/* Main search picker (evasion order when the side to move is in check); threats: pos_attacks_by the enemy. */
void movepick_init(MovePicker *mp, const Position *pos, const Histories *hist, Move ttMove,
                   const Move killers[2], Move counter, const PieceToHistory *const *cont, Bitboard threats);
/* Quiescence picker: noisy moves only, or all evasions when in check. */
void movepick_init_qsearch(MovePicker *mp, const Position *pos, const Histories *hist, Move ttMove,
                           const PieceToHistory *const *cont);
/* The next move, or MOVE_NONE when exhausted. */
Move movepick_next(MovePicker *mp);

/* History score of a quiet move as the picker sees it (also used by LMR). */
int movepick_quiet_score(const Position *pos, const Histories *hist, Move m, const PieceToHistory *const *cont,
                         Bitboard threats);
/* Capture history of a capture or promotion (also used by LMR and capture futility). */
int movepick_capture_history(const Position *pos, const Histories *hist, Move m);

#endif

/*
 * Staged move picker (see movepick.h for the order).
 */
#include "movepick.h"

#include "searchparams.h"

enum {
    MAIN_TT, MAIN_GEN_NOISY, MAIN_GOOD_NOISY, MAIN_KILLER1, MAIN_KILLER2, MAIN_COUNTER,
    MAIN_GEN_QUIET, MAIN_QUIET, MAIN_BAD_NOISY,
    EVASION_TT, EVASION_GEN, EVASION_ALL,
    QS_TT, QS_GEN, QS_NOISY,
    STAGE_DONE
};

/* Evasions: captures before quiet moves (a bound on scores, not a tuned number). */
enum { EVASION_CAPTURE_BONUS = 1 << 20 };

static bool is_underpromotion(Move m) {
    return move_kind(m) == MOVE_PROMOTION && move_promotion(m) != QUEEN;
}

int movepick_quiet_score(const Position *pos, const Histories *hist, Move m, const PieceToHistory *const *cont,
                         Bitboard threats) {
    Piece pc = pos_piece_on(pos, move_from(m));
    Square to = move_to(m);
    int score = hist->butterfly[pos_side_to_move(pos)][butterfly_threat_index(threats, m)][move_from(m)][to];
    for (int i = 0; i < CONT_PLIES; i++)
        if (cont && cont[i]) score += (*cont[i])[pc][to];
    return score;
}

int movepick_capture_history(const Position *pos, const Histories *hist, Move m) {
    return hist->capture[pos_piece_on(pos, move_from(m))][move_to(m)][piece_type(pos_captured_piece(pos, m))];
}

static int noisy_score(const MovePicker *mp, Move m) {
    PieceType victim = piece_type(pos_captured_piece(mp->pos, m));
    int score = MvvWeight * SeeValue[victim] + movepick_capture_history(mp->pos, mp->hist, m) / CaptureHistoryDivisor;
    if (move_kind(m) == MOVE_PROMOTION) score += MvvWeight * SeeValue[move_promotion(m)];
    return score;
}

static bool already_played(const MovePicker *mp, Move m) {
    for (int i = 0; i < mp->playedCount; i++)
        if (mp->played[i] == m) return true;
    return false;
}

/* Copies a generated list into the picker, leaving out moves already returned. */
static void load(MovePicker *mp, const MoveList *list) {
    mp->count = mp->index = 0;
    for (int i = 0; i < list->count; i++)
        if (!already_played(mp, list->moves[i])) mp->moves[mp->count++].move = list->moves[i];
}

/* Moves the best remaining move to the front and returns it. */
static Move pick_best(MovePicker *mp) {
    int best = mp->index;
    for (int i = mp->index + 1; i < mp->count; i++)
        if (mp->moves[i].score > mp->moves[best].score) best = i;
    ScoredMove tmp = mp->moves[best];
    mp->moves[best] = mp->moves[mp->index];
    mp->moves[mp->index] = tmp;
    return mp->moves[mp->index++].move;
}

static void init_common(MovePicker *mp, const Position *pos, const Histories *hist, Move ttMove,
                        const PieceToHistory *const *cont) {
    mp->pos = pos;
    mp->hist = hist;
    for (int i = 0; i < CONT_PLIES; i++) mp->cont[i] = cont ? cont[i] : NULL;
    mp->ttMove = ttMove;
    mp->threats = 0;
    mp->killers[0] = mp->killers[1] = mp->counter = MOVE_NONE;
    mp->playedCount = 0;
    mp->count = mp->index = mp->badCount = mp->badIndex = 0;
    mp->skipQuiets = false;
}

void movepick_init(MovePicker *mp, const Position *pos, const Histories *hist, Move ttMove,
                   const Move killers[2], Move counter, const PieceToHistory *const *cont, Bitboard threats) {
    init_common(mp, pos, hist, ttMove, cont);
    mp->threats = threats;
    mp->killers[0] = killers[0];
    mp->killers[1] = killers[1];
    mp->counter = counter;
    mp->stage = pos_in_check(pos) ? EVASION_TT : MAIN_TT;
}

void movepick_init_qsearch(MovePicker *mp, const Position *pos, const Histories *hist, Move ttMove,
                           const PieceToHistory *const *cont) {
    init_common(mp, pos, hist, ttMove, cont);
    /* Only evasions have quiet moves to order here. */
    if (pos_in_check(pos)) mp->threats = pos_threats(pos);
    mp->stage = pos_in_check(pos) ? EVASION_TT : QS_TT;
}

/* A killer or counter move is tried early only if it is a legal quiet move not yet returned. */
static bool special_quiet_ok(const MovePicker *mp, Move m) {
    return m != MOVE_NONE && !already_played(mp, m) && pos_is_legal(mp->pos, m)
        && !pos_is_capture_or_promotion(mp->pos, m);
}

static Move played(MovePicker *mp, Move m) {
    mp->played[mp->playedCount++] = m;
    return m;
}

Move movepick_next(MovePicker *mp) {
    MoveList list;
    for (;;) {
        switch (mp->stage) {
        case MAIN_TT:
        case EVASION_TT:
            mp->stage++;
            if (mp->ttMove != MOVE_NONE && pos_is_legal(mp->pos, mp->ttMove)) return played(mp, mp->ttMove);
            break;
        case QS_TT:
            mp->stage++;
            if (mp->ttMove != MOVE_NONE && pos_is_legal(mp->pos, mp->ttMove)
                && pos_is_capture_or_promotion(mp->pos, mp->ttMove))
                return played(mp, mp->ttMove);
            break;
        case MAIN_GEN_NOISY:
        case QS_GEN:
            gen_noisy(mp->pos, &list);
            load(mp, &list);
            for (int i = 0; i < mp->count; i++) mp->moves[i].score = noisy_score(mp, mp->moves[i].move);
            mp->stage++;
            break;
        case MAIN_GOOD_NOISY:
            while (mp->index < mp->count) {
                Move m = pick_best(mp);
                /* Losing captures and under-promotions wait until after the quiet moves. */
                if (is_underpromotion(m) || !pos_see_ge(mp->pos, m, 0)) {
                    mp->bad[mp->badCount++] = mp->moves[mp->index - 1];
                    continue;
                }
                return m;
            }
            mp->stage++;
            break;
        case MAIN_KILLER1:
        case MAIN_KILLER2:
        case MAIN_COUNTER: {
            Move m = mp->stage == MAIN_COUNTER ? mp->counter : mp->killers[mp->stage - MAIN_KILLER1];
            mp->stage++;
            if (special_quiet_ok(mp, m) && (!mp->skipQuiets || pos_gives_check(mp->pos, m))) return played(mp, m);
            break;
        }
        case MAIN_GEN_QUIET:
            mp->stage++;
            gen_quiets(mp->pos, &list);
            load(mp, &list);
            for (int i = 0; i < mp->count; i++)
                mp->moves[i].score = movepick_quiet_score(mp->pos, mp->hist, mp->moves[i].move, mp->cont, mp->threats);
            break;
        case MAIN_QUIET:
            if (!mp->skipQuiets) {
                if (mp->index < mp->count) return pick_best(mp);
            } else {
                /* Pruned quiet moves: only checks remain worth a look (in list order, no sorting). */
                while (mp->index < mp->count) {
                    Move m = mp->moves[mp->index++].move;
                    if (pos_gives_check(mp->pos, m)) return m;
                }
            }
            mp->stage++;
            break;
        case MAIN_BAD_NOISY:
            if (mp->badIndex < mp->badCount) return mp->bad[mp->badIndex++].move;
            mp->stage = STAGE_DONE;
            break;
        case EVASION_GEN:
            gen_evasions(mp->pos, &list);
            load(mp, &list);
            for (int i = 0; i < mp->count; i++) {
                Move m = mp->moves[i].move;
                mp->moves[i].score = pos_is_capture_or_promotion(mp->pos, m)
                    ? EVASION_CAPTURE_BONUS + noisy_score(mp, m)
                    : movepick_quiet_score(mp->pos, mp->hist, m, mp->cont, mp->threats);
            }
            mp->stage++;
            break;
        case EVASION_ALL:
        case QS_NOISY:
            if (mp->index < mp->count) return pick_best(mp);
            mp->stage = STAGE_DONE;
            break;
        default:
            return MOVE_NONE;
        }
    }
}

/*
 * gizum-match: PGN output of finished games.
 */
#include "match_pgn.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Movetext lines are wrapped before this many characters (the PGN limit is 255; 80 reads well). */
enum { PGN_LINE_WIDTH = 79 };

/* Appends a token to the movetext, wrapping lines. */
static void emit(FILE *out, int *column, const char *token) {
    int len = (int)strlen(token);
    if (*column > 0 && *column + 1 + len > PGN_LINE_WIDTH) {
        fputc('\n', out);
        *column = 0;
    }
    if (*column > 0) {
        fputc(' ', out);
        (*column)++;
    }
    fputs(token, out);
    *column += len;
}

/* Writes a tag with quotes and backslashes escaped. */
static void write_tag(FILE *out, const char *name, const char *value) {
    fprintf(out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', out);
        fputc(*p, out);
    }
    fputs("\"]\n", out);
}

/* Appends ", key=N" to a comment being built. */
static void comment_int(char *out, size_t len, const char *key, long long value) {
    size_t n = strlen(out);
    if (n + 2 < len) snprintf(out + n, len - n, ", %s=%lld", key, value);
}

/* Appends ", key=S.SSSs". */
static void comment_seconds(char *out, size_t len, const char *key, double seconds) {
    size_t n = strlen(out);
    if (n + 2 < len) snprintf(out + n, len - n, ", %s=%.3fs", key, seconds);
}

/* The comment of one ply: {book} or {+0.35/12 0.512s} (mover's view; mates as +M5), plus the fastchess extras asked for. */
static void ply_comment(const PlyRecord *p, const PgnOptions *o, char *out, size_t len) {
    if (p->book) {
        snprintf(out, len, "{book}");
        return;
    }
    char score[32];
    if (!p->hasScore) snprintf(score, sizeof score, "?");
    else if (p->isMate) snprintf(score, sizeof score, "%sM%d", p->score > 0 ? "+" : "-", abs(p->score));
    else snprintf(score, sizeof score, "%+.2f", p->score / 100.0);
    snprintf(out, len, "{%s/%d %.3fs", score, p->depth, p->seconds);
    if (o && o->nodes && p->nodes >= 0) comment_int(out, len, "n", p->nodes);
    if (o && o->seldepth) comment_int(out, len, "sd", p->seldepth);
    if (o && o->nps && p->nps >= 0) comment_int(out, len, "nps", p->nps);
    if (o && o->hashfull) comment_int(out, len, "hashfull", p->hashfull);
    if (o && o->tbhits && p->tbhits >= 0) comment_int(out, len, "tbhits", p->tbhits);
    if (o && o->timeleft && p->timeLeft >= 0) comment_seconds(out, len, "tl", p->timeLeft);
    if (o && o->latency && !isnan(p->latency)) comment_seconds(out, len, "latency", p->latency);
    if (o && o->plan && !isnan(p->planMax)) comment_seconds(out, len, "max", p->planMax);
    if (o && o->plan && !isnan(p->planUsed)) comment_seconds(out, len, "used", p->planUsed);
    if (o && o->plan && !isnan(p->planWaited)) comment_seconds(out, len, "waited", p->planWaited);
    if (o && o->plan && !isnan(p->planGap)) comment_seconds(out, len, "gap", p->planGap);
    size_t n = strlen(out);
    if (o && o->pv && p->pv[0] && n + strlen(p->pv) + 8 < len) snprintf(out + n, len - n, ", pv=\"%s\"", p->pv);
    n = strlen(out);
    if (n + 1 < len) snprintf(out + n, len - n, "}");
}

/* Long algebraic notation from the SAN and UCI texts: Ng1-f3, e4xd5, e7-e8=Q+, O-O. */
static void move_lan(const MoveText *t, char *out, size_t len) {
    const char *san = t->san, *uci = t->uci;
    if (san[0] == 'O' || strlen(uci) < 4) {
        snprintf(out, len, "%s", san);
        return;
    }
    char piece[2] = {isupper((unsigned char)san[0]) ? san[0] : '\0', '\0'};
    const char *suffix = san + strlen(san);
    while (suffix > san && (suffix[-1] == '+' || suffix[-1] == '#')) suffix--;
    char promo[3] = "";
    if (uci[4]) snprintf(promo, sizeof promo, "=%c", toupper((unsigned char)uci[4]));
    snprintf(out, len, "%s%.2s%c%.2s%s%s", piece, uci, strchr(san, 'x') ? 'x' : '-', uci + 2, promo, suffix);
}

/* Strips characters that would end a PGN comment early. */
static void comment_safe(const char *in, char *out, size_t len) {
    size_t n = 0;
    for (; *in && n + 1 < len; in++) out[n++] = (*in == '{' || *in == '}') ? '(' + (*in == '}') : *in;
    out[n] = '\0';
}

void pgn_write_game(FILE *out, const PgnHeader *h, const GameRecord *rec) {
    char date[16], buf[64];
    struct tm tmv;
    localtime_r(&rec->started, &tmv);
    strftime(date, sizeof date, "%Y.%m.%d", &tmv);
    write_tag(out, "Event", h->event);
    write_tag(out, "Site", h->site);
    write_tag(out, "Date", date);
    write_tag(out, "Round", h->round);
    write_tag(out, "White", h->white);
    write_tag(out, "Black", h->black);
    write_tag(out, "Result", result_text(rec->outcome.result));
    const PgnOptions *o = h->options;
    bool min = o && o->min;
    if (!rec->standard) {
        write_tag(out, "FEN", rec->startFen);
        write_tag(out, "SetUp", "1");
    }
    if (rec->chess960) write_tag(out, "Variant", "Chess960");
    if (!min) {
    if (strcmp(h->whiteTc, h->blackTc) == 0) {
        write_tag(out, "TimeControl", h->whiteTc);
    } else {
        write_tag(out, "WhiteTimeControl", h->whiteTc);
        write_tag(out, "BlackTimeControl", h->blackTc);
    }
    write_tag(out, "Termination", termination_text(rec->outcome.termination));
    snprintf(buf, sizeof buf, "%d", rec->count);
    write_tag(out, "PlyCount", buf);
    }
    fputc('\n', out);

    /* Move numbers follow the start position's side to move and full-move counter. */
    bool blackFirst = strstr(rec->startFen, " b ") != NULL;
    int moveNumber = 1;
    const char *fields = strchr(rec->startFen, ' ');
    for (int i = 0; fields && i < 4; i++) fields = strchr(fields + 1, ' ');
    if (fields) moveNumber = atoi(fields + 1) > 0 ? atoi(fields + 1) : 1;
    int column = 0;
    char token[96], comment[512];
    for (int i = 0; i < rec->count; i++) {
        bool blackMove = (i % 2 == 1) != blackFirst;
        if (!blackMove) {
            snprintf(token, sizeof token, "%d.", moveNumber);
            emit(out, &column, token);
        } else if (i == 0) {
            snprintf(token, sizeof token, "%d...", moveNumber);
            emit(out, &column, token);
        }
        PgnNotation notation = o ? o->notation : PGN_SAN;
        if (notation == PGN_UCI) emit(out, &column, rec->texts[i].uci);
        else if (notation == PGN_LAN) {
            move_lan(&rec->texts[i], token, sizeof token);
            emit(out, &column, token);
        } else emit(out, &column, rec->texts[i].san);
        if (!min) {
            ply_comment(&rec->plies[i], o, comment, sizeof comment);
            emit(out, &column, comment);
        }
        if (blackMove) moveNumber++;
    }
    char safe[256], reason[300];
    comment_safe(rec->outcome.reason, safe, sizeof safe);
    snprintf(reason, sizeof reason, "{%s}", safe);
    if (!min) emit(out, &column, reason);
    emit(out, &column, result_text(rec->outcome.result));
    fputs("\n\n", out);
}

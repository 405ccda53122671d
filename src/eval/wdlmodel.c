/*
 * The win/draw/loss model's coefficients (wdl.h): a(m) and b(m) in
 * centipawns, constant term first. Data only: this whole file is what
 * `gizum-tune --fit-wdl FILE... --wdl-out src/eval/wdlmodel.c` writes.
 *
 * Fitted by gizum-tune --fit-wdl --holdout 0.05 gizum-gen1.txt
 * on 616952 positions of 7800 games; held out: the last 411 games (32758 positions).
 * Held-out log loss (nats per position): 0.6813; material-independent model
 * 0.7342; constant outcome frequencies 1.1016.
 */
#include "wdl.h"

const WdlCoefficients WdlModel = {
    .a = {529.1196, -1480.9485, 1612.4454, -570.6126},
    .b = {202.6939, -499.1649, 642.5255, -233.5781},
};

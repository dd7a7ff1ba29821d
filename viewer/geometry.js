// Where things sit on the timeline canvas, in CSS pixels: the label column, the axis, a run's
// header, a lane and its rows. Pure: constants, and functions of a lane or the runs.

export const LABEL_WIDTH = 150;
export const AXIS_HEIGHT = 24;
export const RUN_HEADER = 22;
/** A lane's height without its instructions row; a lane with stretches to draw is taller by
 *  INSTRUCTIONS_HEIGHT (laneHeight). */
export const LANE_HEIGHT = 56;
export const INSTRUCTIONS_HEIGHT = 8;
/** The rows of a lane, from its top. */
export const ROW = {
    interval: { top: 3, height: 6 },
    request: { top: 11, height: 15 },
    tool: { top: 28, height: 11 },
    turn: { top: 41, height: 10 },
    instructions: { top: 54, height: 8 },
};
// A lane of signposts only draws nested intervals one row per depth.
export const SIGNPOST_ROW = 13;
export const SIGNPOST_DEPTHS = 4;

/** The rows of an interval: nested rows in a lane of signposts, the thin top row elsewhere. */
export function intervalRow(l, e) {
    if (!l.signpostsOnly) return ROW.interval;
    return { top: 3 + e.depth * SIGNPOST_ROW, height: SIGNPOST_ROW - 3 };
}

/** A lane's height: with the instructions row when it has stretches (requests) to draw, so that
 *  lanes of signposts or aggregate bands take no room for it. */
export function laneHeight(l) {
    return LANE_HEIGHT + (l.contexts && l.contexts.length ? INSTRUCTIONS_HEIGHT : 0);
}

/** Sets each run's and lane's `top` and `height` (and each run's), one above the other; returns
 *  the height of them all. */
export function layoutRuns(runs) {
    let y = 0;
    for (const run of runs) {
        run.top = y;
        y += RUN_HEADER;
        for (const l of run.lanes) {
            l.top = y;
            l.height = laneHeight(l);
            y += l.height;
        }
        run.height = y - run.top;
        y += 8;
    }
    return y;
}

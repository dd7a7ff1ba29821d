// Where things sit on the timeline canvas, in CSS pixels: the label column, the axis, a run's
// header, a lane and its rows. Pure: constants, and functions of a lane or the runs.

export const LABEL_WIDTH = 150;
export const AXIS_HEIGHT = 24;
export const RUN_HEADER = 22;
export const LANE_HEIGHT = 58;
/** The rows of a lane, from its top. */
export const ROW = {
    interval: { top: 4, height: 6 },
    request: { top: 13, height: 15 },
    tool: { top: 31, height: 11 },
    turn: { top: 45, height: 10 },
};
// A lane of signposts only draws nested intervals one row per depth.
export const SIGNPOST_ROW = 13;
export const SIGNPOST_DEPTHS = 4;

/** The rows of an interval: nested rows in a lane of signposts, the thin top row elsewhere. */
export function intervalRow(l, e) {
    if (!l.signpostsOnly) return ROW.interval;
    return { top: 3 + e.depth * SIGNPOST_ROW, height: SIGNPOST_ROW - 3 };
}

/** Sets each run's and lane's `top` (and each run's `height`), one above the other; returns the
 *  height of them all. */
export function layoutRuns(runs) {
    let y = 0;
    for (const run of runs) {
        run.top = y;
        y += RUN_HEADER;
        for (const l of run.lanes) {
            l.top = y;
            y += LANE_HEIGHT;
        }
        run.height = y - run.top;
        y += 8;
    }
    return y;
}

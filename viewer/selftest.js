// The self-test driver, for tests only: ViewerDocument adds this module to test exports and never
// to the page `trace-report export` writes (docs/viewer-data.md, "Self-test driver").
//
// `#selftest=STEP,STEP...` drives the page the way a person would, for headless tests that
// can only read the DOM afterwards (chromium --dump-dom). Steps:
//   click:KIND:INDEX[:RUN]  zoom to the INDEX-th request/tool/handoff/interval/band/instructions
//                           stretch of run RUN (by time) and click the canvas where it is drawn
//   finding:INDEX           click the button of finding INDEX (of the data's list) in the side panel
//   group:INDEX             click the INDEX-th group's button (a group of two or more findings)
//   expand:INDEX            click the INDEX-th group's "list all" button
//   more                    click the button that shows the next page of findings
//   key:KEY                 press KEY (+, -, ArrowLeft, 0, ...) on the timeline
//   wheel:DELTA             turn the wheel over the middle of the timeline
//   idlink:FINDING:K        click the K-th event link under finding FINDING in the side panel
//   table                   click the toolbar's Table button (shows or hides the request table)
//   sort:KEY                click the table's KEY column header (ttft, latency, input, cost, ...)
//   filter:NAME:VALUE       choose VALUE (URI-encoded) in the table's NAME filter (session, tool, model,
//                           finding), or type it in the text filter (NAME text)
//   failed                  tick (or untick) the table's "failed only" box
//   row:INDEX               click the INDEX-th row the table shows
// The result goes to an <output> element, id selftest, which this module adds to the page: the
// details panel's text, and data attributes.
//
// A step's time runs from the input to the canvas's pixels: reading one pixel back makes the
// browser rasterize everything the step drew before the clock stops. Before each step the page's
// pending style and layout are settled, as the browser does before a person's input reaches it.
// (Steps run in one task: in headless Chromium's virtual time, a later task's clock stands still.)

import { LABEL_WIDTH } from './geometry.js';
import { timeScale } from './view.js';
import { entryPoint } from './hit-test.js';
import { $ } from './dom.js';
import { ready, viewer } from './main.js';

const output = document.createElement('output');
output.id = 'selftest';
output.hidden = true;
document.body.appendChild(output);

function runSelfTest(spec) {
    const state = viewer.state;
    const lanesCanvas = viewer.canvases.lanes;
    const log = [];
    const lists = { request: 'requests', tool: 'tools', handoff: 'handoffs', interval: 'intervals',
        band: 'bands', instructions: 'contexts' };
    for (const step of spec.split(',')) {
        void document.body.offsetHeight;
        const parts = step.split(':');
        const began = performance.now();
        if (parts[0] === 'click') {
            const run = state.runs[Number(parts[3] || 0)];
            const entry = run && lists[parts[1]] ? run[lists[parts[1]]][Number(parts[2])] : null;
            if (!entry) { log.push('no ' + step); continue; }
            viewer.revealEntry(entry, true);
            viewer.render();
            const p = entryPoint(entry, timeScale(state.view, state.width), state.scrollY);
            const rect = lanesCanvas.getBoundingClientRect();
            const init = { bubbles: true, cancelable: true, clientX: rect.left + p.x, clientY: rect.top + p.y,
                button: 0 };
            lanesCanvas.dispatchEvent(new MouseEvent('mousedown', init));
            window.dispatchEvent(new MouseEvent('mouseup', init));
            lanesCanvas.dispatchEvent(new MouseEvent('click', init));
            output.dataset.clickedKind = state.selected ? state.selected.kind : '';
            output.dataset.clickedId = state.selected ? state.selected.id : '';
            output.dataset.expectedId = entry.id;
        } else if (parts[0] === 'finding' || parts[0] === 'group') {
            const button = parts[0] === 'finding'
                ? document.querySelector('.finding[data-index="' + Number(parts[1]) + '"]')
                : document.querySelectorAll('.finding-group')[Number(parts[1])];
            if (!button) { log.push('no ' + step); continue; }
            button.click();
            output.dataset.highlighted = Array.from(state.highlight).map((e) => e.id).join(' ');
            output.dataset.activeFinding = String(state.activeFinding);
        } else if (parts[0] === 'expand') {
            const button = document.querySelectorAll('.expand-group')[Number(parts[1])];
            if (!button) { log.push('no ' + step); continue; }
            button.click();
        } else if (parts[0] === 'more') {
            const button = document.querySelector('.more-findings');
            if (!button) { log.push('no ' + step); continue; }
            button.click();
        } else if (parts[0] === 'key') {
            const key = decodeURIComponent(parts.slice(1).join(':'));
            viewer.wrap.dispatchEvent(new KeyboardEvent('keydown', { key: key, bubbles: true, cancelable: true }));
        } else if (parts[0] === 'wheel') {
            const rect = lanesCanvas.getBoundingClientRect();
            const plotWidth = timeScale(state.view, state.width).plotWidth;
            lanesCanvas.dispatchEvent(new WheelEvent('wheel', { deltaY: Number(parts[1]), bubbles: true,
                cancelable: true, clientX: rect.left + LABEL_WIDTH + plotWidth / 2,
                clientY: rect.top + rect.height / 2 }));
        } else if (parts[0] === 'idlink') {
            const links = document.querySelectorAll('.finding-ids[data-finding="' + parts[1] + '"] button');
            const link = links[Number(parts[2])];
            if (!link) { log.push('no ' + step); continue; }
            link.click();
            output.dataset.clickedId = state.selected ? state.selected.id : '';
        } else if (parts[0] === 'table') {
            $('toggle-table').click();
        } else if (parts[0] === 'sort') {
            const button = document.querySelector('#requests-head button[data-sort="' + parts[1] + '"]');
            if (!button) { log.push('no ' + step); continue; }
            button.click();
        } else if (parts[0] === 'filter') {
            const select = $('filter-' + parts[1]);
            if (!select) { log.push('no ' + step); continue; }
            select.value = decodeURIComponent(parts.slice(2).join(':'));
            select.dispatchEvent(new Event('change'));
        } else if (parts[0] === 'failed') {
            $('filter-failed').click();
        } else if (parts[0] === 'row') {
            const row = document.querySelectorAll('#requests-body tr')[Number(parts[1])];
            if (!row) { log.push('no ' + step); continue; }
            row.click();
            output.dataset.clickedId = state.selected ? state.selected.id : '';
        } else {
            log.push('unknown ' + step);
            continue;
        }
        lanesCanvas.getContext('2d').getImageData(0, 0, 1, 1);
        log.push(step + ' ' + (performance.now() - began).toFixed(1) + 'ms');
    }
    output.dataset.steps = log.join('; ');
    output.dataset.selected = state.selected ? state.selected.kind + ':' + state.selected.id : '';
    output.textContent = detailsText();
    output.dataset.status = 'done';
}

/** The details panel as plain lines: `label: value`, `finding: title`, `payload: text`. */
function detailsText() {
    const lines = [];
    const body = $('details-body');
    const dl = body.querySelector('dl');
    if (dl) {
        const terms = dl.querySelectorAll('dt');
        for (const dt of terms) lines.push(dt.textContent + ': ' + dt.nextElementSibling.textContent);
    }
    for (const b of body.querySelectorAll('.entry-findings button')) lines.push('finding: ' + b.textContent);
    for (const pre of body.querySelectorAll('pre')) lines.push('payload: ' + pre.textContent);
    return lines.join('\n');
}

// Runs once the page is ready, in the same task that made it ready.
ready.then(() => {
    const match = /(?:^|&)selftest=([^&]*)/.exec(location.hash.slice(1));
    if (match) runSelfTest(decodeURIComponent(match[1]));
});

// The viewer's input: drag, wheel and keys on the timeline, the overview, the toolbar and the
// file picker. Each handler turns an event into one of the viewer's actions (main.js).

import { LABEL_WIDTH, LANE_HEIGHT } from './geometry.js';
import { timeScale } from './view.js';
import { hitTest } from './hit-test.js';
import { hoverText } from './labels.js';
import { buildEventList } from './panels.js';
import { toggleRequestTable } from './table.js';
import { $ } from './dom.js';

/**
 * Installs the listeners; `viewer` holds the state, the canvases and the actions: render, setView,
 * zoom, pan, resetView, clampScroll, select, load and showError.
 */
export function installInput(viewer) {
    const { state, wrap } = viewer;
    const lanesCanvas = viewer.canvases.lanes;
    const overviewCanvas = viewer.canvases.overview;
    const { render, setView, zoom, pan, resetView, clampScroll, select } = viewer;
    const scale = () => timeScale(state.view, state.width);

    function canvasPoint(event) {
        const rect = lanesCanvas.getBoundingClientRect();
        return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    }

    let drag = null;

    lanesCanvas.addEventListener('mousedown', (event) => {
        if (event.button !== 0) return;
        drag = { x: event.clientX, y: event.clientY, start: state.view.start, end: state.view.end,
            scrollY: state.scrollY, moved: false };
        lanesCanvas.classList.add('dragging');
        wrap.focus({ preventScroll: true });
    });

    window.addEventListener('mousemove', (event) => {
        if (!drag) return;
        const dx = event.clientX - drag.x;
        const dy = event.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (!drag.moved) return;
        const perPixel = (drag.end - drag.start) / scale().plotWidth;
        setView(drag.start - dx * perPixel, drag.end - dx * perPixel);
        state.scrollY = drag.scrollY - dy;
        clampScroll();
        render();
    });

    window.addEventListener('mouseup', () => {
        lanesCanvas.classList.remove('dragging');
        if (drag) setTimeout(() => { drag = null; }, 0);
    });

    lanesCanvas.addEventListener('mousemove', (event) => {
        if (drag) return;
        const point = canvasPoint(event);
        lanesCanvas.title = hoverText(hitTest(state.runs, scale(), state.scrollY, point.x, point.y));
    });

    lanesCanvas.addEventListener('click', (event) => {
        if (drag && drag.moved) return;
        const point = canvasPoint(event);
        select(hitTest(state.runs, scale(), state.scrollY, point.x, point.y), false);
    });

    lanesCanvas.addEventListener('wheel', (event) => {
        event.preventDefault();
        const point = canvasPoint(event);
        if (event.shiftKey) {
            state.scrollY += event.deltaY;
            clampScroll();
            render();
            return;
        }
        if (Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
            pan(event.deltaX / scale().plotWidth);
            return;
        }
        const anchor = point.x >= LABEL_WIDTH ? scale().timeAt(point.x) : undefined;
        zoom(Math.pow(1.0015, event.deltaY), anchor);
    }, { passive: false });

    function onKey(event) {
        if (event.target && (event.target.tagName === 'INPUT' || event.target.tagName === 'TEXTAREA')) return;
        if (event.ctrlKey || event.metaKey || event.altKey) return;
        let handled = true;
        switch (event.key) {
        case '+': case '=': zoom(0.5); break;
        case '-': case '_': zoom(2); break;
        case 'ArrowLeft': pan(-0.2); break;
        case 'ArrowRight': pan(0.2); break;
        case 'ArrowUp': state.scrollY -= LANE_HEIGHT; clampScroll(); render(); break;
        case 'ArrowDown': state.scrollY += LANE_HEIGHT; clampScroll(); render(); break;
        case 'PageUp': state.scrollY -= lanesCanvas.clientHeight * 0.8; clampScroll(); render(); break;
        case 'PageDown': state.scrollY += lanesCanvas.clientHeight * 0.8; clampScroll(); render(); break;
        case '0': case 'Home': resetView(); render(); break;
        case 'Escape':
            state.highlight = new Set();
            state.activeFinding = -1;
            for (const b of document.querySelectorAll('.finding.active')) b.classList.remove('active');
            select(null, false);
            break;
        default: handled = false;
        }
        if (handled) event.preventDefault();
    }
    document.addEventListener('keydown', onKey);

    let overviewDrag = false;
    function overviewMove(event) {
        const rect = overviewCanvas.getBoundingClientRect();
        const t = ((event.clientX - rect.left) / rect.width) * state.fullSpan * 1.02;
        const half = (state.view.end - state.view.start) / 2;
        setView(t - half, t + half);
        render();
    }
    overviewCanvas.addEventListener('mousedown', (event) => { overviewDrag = true; overviewMove(event); });
    window.addEventListener('mousemove', (event) => { if (overviewDrag) overviewMove(event); });
    window.addEventListener('mouseup', () => { overviewDrag = false; });

    $('zoom-in').addEventListener('click', () => zoom(0.5));
    $('zoom-out').addEventListener('click', () => zoom(2));
    $('zoom-reset').addEventListener('click', () => { resetView(); render(); });
    $('toggle-table').addEventListener('click', () => toggleRequestTable(viewer.state, viewer.select));

    $('toggle-events').addEventListener('click', () => {
        const events = $('events');
        events.hidden = !events.hidden;
        $('toggle-events').setAttribute('aria-expanded', String(!events.hidden));
    });

    $('open-file').addEventListener('change', (event) => {
        const file = event.target.files && event.target.files[0];
        if (!file) return;
        const reader = new FileReader();
        reader.onload = () => {
            try {
                viewer.load(JSON.parse(String(reader.result)));
                render();
                buildEventList(state.runs);
            } catch (error) {
                viewer.showError(error);
            }
        };
        reader.readAsText(file);
    });

    let resizeFrame = 0;
    window.addEventListener('resize', () => {
        cancelAnimationFrame(resizeFrame);
        resizeFrame = requestAnimationFrame(() => { clampScroll(); render(); });
    });
}

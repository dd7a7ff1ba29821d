// Numbers and text as the viewer shows them: durations, counts, rates, shares and sizes, '–' for
// a value that is missing. Pure: each function takes a value and returns a string.

/** A finite number from a number or numeric string; null for a missing or non-numeric value. */
export function num(value) {
    if (value === null || value === undefined || value === '') return null;
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? n : null;
}

/** A string, '' for null and undefined. */
export function str(value) {
    return value === null || value === undefined ? '' : String(value);
}

/** Nanoseconds in the largest unit that keeps the figure at or above 1: '123 ms', '1.50 s'. */
export function formatDuration(ns) {
    if (ns === null || ns === undefined || !Number.isFinite(ns)) return '–';
    const abs = Math.abs(ns);
    if (abs >= 60e9) return (ns / 60e9).toFixed(abs >= 600e9 ? 0 : 1) + ' min';
    if (abs >= 1e9) return (ns / 1e9).toFixed(abs >= 10e9 ? 1 : 2) + ' s';
    if (abs >= 1e6) return (ns / 1e6).toFixed(abs >= 100e6 ? 0 : 1) + ' ms';
    if (abs >= 1e3) return (ns / 1e3).toFixed(abs >= 100e3 ? 0 : 1) + ' µs';
    return Math.round(ns) + ' ns';
}

/**
 * A time on an axis whose marks are `step` apart, with the digits that tell it from its
 * neighbours: '167 min 12.35 s' where formatDuration would say '167 min' for every mark.
 */
export function formatTick(ns, step) {
    if (!Number.isFinite(ns) || !(step > 0)) return formatDuration(ns);
    const digits = (unit) => Math.min(9, Math.max(0, Math.ceil(Math.log10(unit / step) - 1e-9)));
    const abs = Math.abs(ns);
    if (abs >= 60e9) {
        if (step >= 60e9) return (ns / 60e9).toFixed(digits(60e9)) + ' min';
        const minutes = Math.trunc(ns / 60e9);
        return minutes + ' min ' + (Math.abs(ns - minutes * 60e9) / 1e9).toFixed(digits(1e9)) + ' s';
    }
    const [unit, name] = abs >= 1e9 ? [1e9, ' s'] : abs >= 1e6 ? [1e6, ' ms'] : abs >= 1e3 ? [1e3, ' µs'] : [1, ' ns'];
    return (ns / unit).toFixed(digits(unit)) + name;
}

// One formatter: toLocaleString builds a new one on every call, about half a millisecond each.
const countFormat = new Intl.NumberFormat('en-US');

/** A count with thousands separated by commas: '12,345'. */
export function formatCount(value) {
    const n = num(value);
    return n === null ? '–' : countFormat.format(n);
}

/** Tokens per second to one decimal: '41.0 tok/s'. */
export function formatRate(value) {
    const n = num(value);
    return n === null ? '–' : n.toFixed(1) + ' tok/s';
}

/** A share from 0 to 1 as a whole percentage: '81%'. */
export function formatPercent(value) {
    const n = num(value);
    return n === null ? '–' : (n * 100).toFixed(0) + '%';
}

/** Bytes in B, KiB or MiB: '4.8 KiB'. */
export function formatBytes(value) {
    const n = num(value);
    if (n === null) return '–';
    if (n >= 1048576) return (n / 1048576).toFixed(1) + ' MiB';
    if (n >= 1024) return (n / 1024).toFixed(1) + ' KiB';
    return n + ' B';
}

/** Dollars as the CLI writes them (PriceTable.dollars): 2 digits from $1, 4 below, more below a cent. */
export function formatDollars(value) {
    if (value === null || value === undefined || !Number.isFinite(value)) return '–';
    const magnitude = Math.abs(value);
    let digits = magnitude >= 100 ? 0 : magnitude >= 1 ? 2 : 4;
    if (magnitude > 0 && magnitude < 0.01) digits = Math.min(12, Math.floor(-Math.log10(magnitude)) + 2);
    const text = magnitude >= 1000 ? formatCount(Math.round(magnitude)) : magnitude.toFixed(digits);
    return (value < 0 ? '-$' : '$') + text;
}

/** An event's short id as the CLI prints it (`#` and the id's low 32 bits: its number in its run);
 *  an id that is not a number stays as it is. */
export function shortID(id) {
    const text = str(id);
    return /^-?\d+$/.test(text) ? '#' + (BigInt(text) & 0xFFFFFFFFn).toString() : text;
}

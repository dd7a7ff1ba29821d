// format.js: each formatter's text at the edges of its units, and for missing values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatCount, formatDuration, formatPercent, formatRate, formatTick, num, str, shortID } from '../format.js';

test('formatDuration picks the unit and the digits by size', () => {
    const cases = [
        [0, '0 ns'], [999, '999 ns'], [999.6, '1000 ns'], [1000, '1.0 µs'], [99_949, '99.9 µs'],
        [100_000, '100 µs'], [999_999, '1000 µs'], [1_000_000, '1.0 ms'], [70_000_000, '70.0 ms'],
        [95_000_000, '95.0 ms'], [99_960_000, '100.0 ms'], [100_000_000, '100 ms'], [123_000_000, '123 ms'],
        [380_000_000, '380 ms'], [1_000_000_000, '1.00 s'], [1_100_000_000, '1.10 s'], [9_999_000_000, '10.00 s'],
        [10_000_000_000, '10.0 s'], [59_990_000_000, '60.0 s'], [60e9, '1.0 min'], [599e9, '10.0 min'],
        [600e9, '10 min'], [-2_500_000, '-2.5 ms'], [-150_000_000, '-150 ms'],
    ];
    for (const [ns, text] of cases) assert.equal(formatDuration(ns), text, String(ns));
});

test('formatTick tells neighbouring axis marks apart, however far into the run', () => {
    // Zoomed into a long run: marks 50 ms apart, 167 minutes in.
    const start = 167 * 60e9 + 12_300_000_000;
    const marks = [0, 1, 2, 3].map((k) => formatTick(start + k * 50e6, 50e6));
    assert.deepEqual(marks, ['167 min 12.30 s', '167 min 12.35 s', '167 min 12.40 s', '167 min 12.45 s']);
    assert.equal(new Set([0, 1, 2].map((k) => formatTick(30e9 + k * 1e6, 1e6))).size, 3);
    assert.equal(formatTick(30e9 + 2e6, 1e6), '30.002 s');
    assert.equal(formatTick(150e6 + 20e3, 10e3), '150.02 ms');
    assert.equal(formatTick(1.5e9, 0.5e9), '1.5 s');
    assert.equal(formatTick(600e9, 300e9), '10 min');
    assert.equal(formatTick(0, 50e6), '0 ns');
    assert.equal(formatTick(NaN, 1), '–');
});

test('formatDuration shows a dash for what is not a number', () => {
    for (const value of [null, undefined, NaN, Infinity, -Infinity]) assert.equal(formatDuration(value), '–');
});

test('formatCount separates thousands with commas and reads numeric strings', () => {
    assert.equal(formatCount(0), '0');
    assert.equal(formatCount(999), '999');
    assert.equal(formatCount(1000), '1,000');
    assert.equal(formatCount(1234567), '1,234,567');
    assert.equal(formatCount('4936'), '4,936');
    assert.equal(formatCount(-12000), '-12,000');
    assert.equal(formatCount(null), '–');
    assert.equal(formatCount(''), '–');
    assert.equal(formatCount('many'), '–');
});

test('formatRate, formatPercent and formatBytes', () => {
    assert.equal(formatRate(41), '41.0 tok/s');
    assert.equal(formatRate(12.345), '12.3 tok/s');
    assert.equal(formatRate(undefined), '–');
    assert.equal(formatPercent(0.8103), '81%');
    assert.equal(formatPercent(1), '100%');
    assert.equal(formatPercent(0), '0%');
    assert.equal(formatPercent(null), '–');
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1.0 KiB');
    assert.equal(formatBytes(4936), '4.8 KiB');
    assert.equal(formatBytes(1048576), '1.0 MiB');
    assert.equal(formatBytes(null), '–');
});

test('num and str', () => {
    assert.equal(num('12'), 12);
    assert.equal(num(3.5), 3.5);
    assert.equal(num(''), null);
    assert.equal(num(null), null);
    assert.equal(num('x'), null);
    assert.equal(num(NaN), null);
    assert.equal(str(null), '');
    assert.equal(str(undefined), '');
    assert.equal(str(42), '42');
});

test('a short id is # and the low 32 bits of the id, as the CLI prints it', () => {
    assert.equal(shortID('8455567854404632602'), '#' + String(8455567854404632602n & 0xFFFFFFFFn));
    assert.equal(shortID('4294967303'), '#7');
    assert.equal(shortID('band-3'), 'band-3');
});

// Browser test of `netdp report` pages: opens each report offline in Debian's Chromium and checks
// that every chart is drawn, nothing errs and nothing is fetched from the network.
//
//   node tests/report/check_report.mjs OUT_DIR REPORT.html [REPORT.html ...]
//
// Exit code 0 when every report passes, 1 otherwise (one line per failure names the report).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {chromium} from 'playwright-core';
import {PNG} from 'pngjs';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const RENDER_TIMEOUT_MS = 60_000;
const MIN_VARIANCE = 20; // grey-level variance of a blank page is ~0
const OFFLINE_SCHEMES = ['file:', 'data:', 'blob:'];

/** Grey-level variance of a PNG image: near zero for a blank page. */
export function pixelVariance(pngBuffer) {
  const {data, width, height} = PNG.sync.read(pngBuffer);
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < data.length; i += 4) {
    const grey = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
    sum += grey;
    sumSq += grey * grey;
  }
  const count = width * height;
  const mean = sum / count;
  return sumSq / count - mean * mean;
}

/** The .chart containers and, for each, whether it holds a drawn <svg>/<canvas> of non-zero size. */
async function chartSizes(page) {
  return page.$$eval('.chart', (charts) => charts.map((chart) => {
    // Vega's drawing is the .marks element; the export menu's icon is an <svg> too, so it is skipped.
    const drawn = [...chart.querySelectorAll('svg.marks, canvas.marks')].some((node) => {
      const box = node.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    });
    return {name: chart.dataset.chart || '(unnamed)', drawn};
  }));
}

/**
 * Checks one report; returns {failures: [reasons], charts, screenshot, variance, seconds}.
 * Each report gets its own Chromium with a new, empty profile.
 */
export async function checkReport(reportPath, outDir) {
  const failures = [];
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'netdp-report-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: {width: 1200, height: 900},
  });
  const result = {failures, charts: 0, screenshot: null, variance: null, seconds: null};
  try {
    // Offline: anything but file:, data: and blob: is aborted and counted as a failure.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (OFFLINE_SCHEMES.includes(new URL(url).protocol)) return route.continue();
      failures.push(`network request to ${url}`);
      return route.abort();
    });
    const page = context.pages()[0] || await context.newPage();
    page.on('console', (msg) => { if (msg.type() === 'error') failures.push(`console error: ${msg.text()}`); });
    page.on('pageerror', (err) => failures.push(`page error: ${err.message}`));

    const start = Date.now();
    await page.goto(pathToFileURL(path.resolve(reportPath)).href, {waitUntil: 'load', timeout: RENDER_TIMEOUT_MS});
    const status = await page.waitForFunction(
      () => ['rendered', 'failed'].includes(document.documentElement.dataset.netdpStatus) &&
        document.documentElement.dataset.netdpStatus,
      null, {timeout: Math.max(1, RENDER_TIMEOUT_MS - (Date.now() - start))},
    ).then((handle) => handle.jsonValue(), () => 'timed out');
    result.seconds = (Date.now() - start) / 1000;
    if (status !== 'rendered') {
      const message = await page.evaluate(() => document.documentElement.dataset.netdpError || '');
      failures.push(`status is '${status}' instead of 'rendered'${message ? `: ${message}` : ''}`);
    }

    const charts = await chartSizes(page);
    result.charts = charts.length;
    if (charts.length === 0) failures.push('no .chart container');
    for (const chart of charts.filter((c) => !c.drawn)) failures.push(`chart '${chart.name}' has no drawn <svg> or <canvas>`);

    result.screenshot = path.join(outDir, `${path.basename(reportPath, path.extname(reportPath))}.png`);
    const png = await page.screenshot({path: result.screenshot, fullPage: true});
    result.variance = pixelVariance(png);
    if (result.variance < MIN_VARIANCE) failures.push(`blank page: pixel variance ${result.variance.toFixed(2)} < ${MIN_VARIANCE}`);
  } catch (err) {
    failures.push(`check aborted: ${err.message}`);
  } finally {
    await context.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
  return result;
}

async function main(argv) {
  if (argv.length < 2) {
    console.error('usage: node check_report.mjs OUT_DIR REPORT.html [REPORT.html ...]');
    return 2;
  }
  const [outDir, ...reports] = argv;
  fs.mkdirSync(outDir, {recursive: true});
  let failed = 0;
  for (const report of reports) {
    const r = await checkReport(report, outDir);
    const variance = r.variance === null ? 'n/a' : r.variance.toFixed(1);
    const seconds = r.seconds === null ? 'n/a' : `${r.seconds.toFixed(1)} s`;
    console.log(`${report}: ${r.charts} charts, screenshot ${r.screenshot}, variance ${variance}, rendered in ${seconds}`);
    for (const reason of r.failures) console.error(`FAIL ${report}: ${reason}`);
    if (r.failures.length) failed++;
  }
  if (failed) console.error(`${failed} of ${reports.length} reports failed`);
  return failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}

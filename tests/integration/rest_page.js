// rest_page.js - drives drover-restd's status page in headless chromium (puppeteer-core), as a
// visitor would: enter the token, find the test's job in the queue, follow it to COMPLETED
// without reloading, see the drained node's reason, the chart, and the job's page with its steps.
// Prints "ok - ..." or "not ok - ..." per check (rest_page_test.sh counts them).
//   node rest_page.js URL TOKEN JOB_ID GATE_FILE DRAINED_NODE REASON
const puppeteer = require('puppeteer-core');
const fs = require('fs');
const [url, token, job, gate, node, reason] = process.argv.slice(2);

async function check(what, fn) {
  try {
    await fn();
    console.log(`ok - ${what}`);
  } catch (e) {
    console.log(`not ok - ${what}: ${String(e.message || e).split('\n')[0]}`);
  }
}
const text = (page, sel) => page.$eval(sel, e => e.textContent);

(async () => {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/status`);
    await check('the page asks for a token', () => page.waitForSelector('#login', {visible: true}));
    await page.type('#token', token);
    await page.click('#use');
    await check('the queue shows the job running', () =>
      page.waitForFunction(id => { const a = document.getElementById('job-' + id);
        return a && a.closest('tr').querySelector('.state').textContent === 'RUNNING'; },
      {timeout: 60000}, job));
    await check('the partitions are listed', async () => {
      const t = await text(page, '#partitions');
      if (!t.includes('debug')) throw new Error(`partitions: ${t}`);
    });
    await check(`the drained node shows its reason`, () =>
      page.waitForFunction((n, r) => { const e = document.getElementById('node-' + n);
        return e && e.classList.contains('DRAIN') && e.textContent.includes(r); },
      {timeout: 30000}, node, reason));
    fs.writeFileSync(gate, '');
    await check('the job is followed to COMPLETED without a reload', () =>
      page.waitForFunction(id => { const a = document.getElementById('job-' + id);
        return a && a.closest('tr').querySelector('.state').textContent === 'COMPLETED'; },
      {timeout: 60000}, job));
    await check('the chart counts the ended job', () =>
      page.waitForFunction(() => Number(document.getElementById('chart').dataset.ended) >= 1,
        {timeout: 30000}));
    await page.type('#f-state', 'RUNNING');
    await check('the state filter hides the completed job', () =>
      page.waitForFunction(id => !document.getElementById('job-' + id), {timeout: 30000}, job));
    await page.$eval('#f-state', e => { e.value = ''; });
    await page.waitForSelector(`#job-${job}`, {timeout: 30000});
    await page.click(`#job-${job}`);
    await check("the job's page shows its state and batch step", () =>
      page.waitForFunction(id => { const s = document.getElementById('job-state');
        return s && s.textContent === 'COMPLETED' &&
          document.getElementById('steps').textContent.includes(id + '.batch'); },
      {timeout: 30000}, job));
  } finally {
    await browser.close();
  }
})().catch(e => { console.log(`not ok - the browser run: ${e.message}`); process.exit(1); });

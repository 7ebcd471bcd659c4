// Browser test of the provider side (issue 11, docs/provider-contract.md) against the real server
// (NEARCARE_URL): an operator invites a DPC provider with the indexer CLI, the provider sets a
// password from the emailed link, signs in, favourites a solution and asks to participate (rate,
// contract, agree); the facilitator approves from the emailed review link; the provider sees
// Active with Participation Details, changes the rate (still Active at its rate, with the requested
// one beside it and Stop Participating; the facilitator is asked about the change of rate and
// approves it from a new emailed link), then stops participating. A second request, made on a phone,
// is declined by the facilitator on a phone. Screenshots at 1280x800 and 390x844.
//
// Needs E2E_DATABASE_URL (the e2e server's database: the CLI writes the invitation there, and the
// organisation is picked from it) and E2E_MAIL_DIR (the messages the e2e server's SMTP server
// received). The CLI is <repo>/target/debug/indexer unless E2E_INDEXER names another.
import { assert, BASE_URL, DESKTOP, indexer, latestLink, launchBrowser, local, logIn, MOBILE, newPage, outboxLink, requireDatabase, screenshot, sql, test } from './harness.mjs';

const PASSWORD = 'Nearcare-provider-1';
const EMPTY_SOLUTIONS = 'You are not paricipating in any solution!';
const EMPTY_FAVORITES = 'There are no solutions marked as favorites!';

/** An organisation (the catalogue's DPC provider) without provider accounts, so its carousels start empty. */
function pickOrganisation() {
  const fresh = sql(
    "select o.id from organisations o where not exists (select 1 from members m where m.organisation_id = o.id) order by o.id desc limit 1",
  );
  assert(/^\d+$/.test(fresh), `an organisation id from the database, got '${fresh}'`);
  return Number(fresh);
}

/** Collects the page's Content-Security-Policy violations (console and events), as security.e2e.mjs does. */
async function watchCsp(page) {
  const reported = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (load|apply|execute|connect|frame)/i.test(text)) reported.push(`console: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.log(`Refused to load (event): ${event.violatedDirective} ${event.blockedURI}`));
  });
  return reported;
}

async function setPassword(page, link) {
  await page.goto(local(link));
  await page.getByLabel('New Password', { exact: true }).waitFor();
  await page.getByLabel('New Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /Set password|Reset password/ }).click();
  await page.getByRole('button', { name: 'Continue to Login' }).click();
  await page.waitForURL(/\/login/);
}

/** The solution's facilitator email, from its detail page's Solution Facilitator section. */
async function facilitatorEmail(page) {
  const mailto = await page.locator('a[href^="mailto:"]').first().getAttribute('href');
  assert(mailto, 'the facilitator has an email');
  return mailto.slice('mailto:'.length);
}

/** Steps through the participation dialog, with screenshots of both steps under `prefix`. */
async function participate(page, solutionName, prefix) {
  await page.getByRole('button', { name: 'Participate', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Participate in ${solutionName}` });
  await dialog.waitFor();
  await dialog.getByText('Please select rate first').waitFor();
  assert(await dialog.getByRole('button', { name: 'Next' }).isDisabled(), 'Next is disabled until a rate is chosen');
  await dialog.getByRole('radio').first().check();
  await dialog.getByRole('row', { name: /^Total/ }).waitFor();
  assert((await dialog.getByText('Please select rate first').count()) === 0, 'the hint goes once a rate is chosen');
  const totals = await dialog.getByRole('row', { name: /^Total/ }).innerText();
  assert(/\$\d[\d,]*\.\d\d/.test(totals), `the total is shown in dollars, got '${totals}'`);
  await screenshot(page, `${prefix}-dialog-step1`);
  await dialog.getByRole('button', { name: 'Next' }).click();
  // The contract PDF is drawn in the dialog (pdf.js), one canvas per page.
  await dialog.getByRole('document', { name: `Contract for ${solutionName}` }).locator('canvas').first().waitFor();
  assert((await dialog.getByText('The contract could not be shown here').count()) === 0, 'the contract is shown in the dialog');
  const contract = await dialog.getByRole('link', { name: 'Open the contract in a new tab' }).getAttribute('href');
  const pdf = await fetch(new URL(contract, BASE_URL));
  assert(pdf.ok && (pdf.headers.get('content-type') ?? '').includes('pdf'), `the contract is a PDF (${pdf.status} ${pdf.headers.get('content-type')})`);
  const participateButton = dialog.getByRole('button', { name: 'Participate', exact: true });
  assert(await participateButton.isDisabled(), 'Participate is disabled until the agree box is ticked');
  await page.waitForTimeout(700);
  await screenshot(page, `${prefix}-dialog-step2`);
  // The provider solution form's e-mail: the signed-in account's address until changed.
  const contact = dialog.getByRole('textbox', { name: "E-mail for the facilitator's decision" });
  const contactEmail = await contact.inputValue();
  assert(/^e2e-provider-.*@dpc\.example$/.test(contactEmail), `the decision's e-mail starts as the account's, got '${contactEmail}'`);
  await dialog.getByRole('checkbox').check();
  await participateButton.click();
  const pending = page.getByRole('dialog', { name: 'Pending Approval' });
  await pending.waitFor();
  assert((await pending.innerText()).includes(`We will email their decision to ${contactEmail}.`), 'the pending dialog names the address the decision goes to');
  await pending.getByRole('button', { name: 'Okay' }).click();
  await page.getByRole('button', { name: 'Pending Approval' }).waitFor();
  assert(await page.getByRole('button', { name: 'Pending Approval' }).isDisabled(), 'Pending Approval is a disabled button');
}

test('provider: invited, sets a password, favourites, participates; the facilitator approves; Active, then Stop Participating', async () => {
  requireDatabase();
  const organisation = pickOrganisation();
  const email = `e2e-provider-${Date.now()}@dpc.example`;
  indexer('providers', 'invite', '--organisation', String(organisation), '--email', email, '--first-name', 'Pat', '--last-name', 'Provider');
  const invitation = await outboxLink(email);
  assert(invitation.includes('/auth/reset-password?token='), `the invitation links to the set-password page, got ${invitation}`);

  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    // The contract viewer (pdf.js, its worker) must work under the server's CSP.
    const cspViolations = await watchCsp(page);
    await setPassword(page, invitation);
    await logIn(page, email, PASSWORD);
    await page.waitForURL(/\/dpc-providers\/solutions$/);
    await page.getByText(EMPTY_SOLUTIONS, { exact: true }).waitFor();
    await page.getByText(EMPTY_FAVORITES, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    assert((await nav.getByRole('link').allInnerTexts()).join(',') === 'Members,Solutions,Listings,Rates,Settings', 'the side bar has Members, Solutions, Listings, Rates and Settings');
    await screenshot(page, 'provider-desktop-01-solutions-empty');

    // A member page is not for a provider.
    await page.goto(`${BASE_URL}/home`);
    await page.waitForURL(/\/dpc-providers\/solutions$/);

    // Favourite the first solution of the marketplace.
    const all = page.locator('section', { has: page.getByRole('heading', { name: 'All Solutions' }) });
    const firstCard = all.getByRole('article').first();
    const solutionName = (await firstCard.getByRole('link').innerText()).trim();
    await firstCard.getByRole('button', { name: `Add ${solutionName} to favorites` }).click();
    await page.getByText(EMPTY_FAVORITES, { exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('list', { name: 'My Favorites' }).getByRole('link', { name: solutionName }).waitFor();
    await firstCard.getByRole('button', { name: `Remove ${solutionName} from favorites` }).waitFor();
    await screenshot(page, 'provider-desktop-02-solutions-favourite');

    // Participate.
    await firstCard.getByRole('link', { name: solutionName }).click();
    await page.waitForURL(/\/dpc-providers\/solutions\/details\/\d+$/);
    const detailUrl = page.url();
    await page.getByRole('heading', { name: 'Rates & Fees' }).waitFor();
    for (const heading of ['Details', 'Solution Facilitator', 'Enrollment/Participation']) await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    await page.getByRole('button', { name: `Remove ${solutionName} from favorites` }).waitFor();
    await screenshot(page, 'provider-desktop-03-detail-not-contracted');
    const facilitator = await facilitatorEmail(page);
    const before = latestLink(facilitator);
    await participate(page, solutionName, 'provider-desktop-04');
    await page.getByRole('heading', { name: 'Participation Details' }).waitFor();
    await screenshot(page, 'provider-desktop-05-detail-pending');
    assert(cspViolations.length === 0, `CSP violations while participating:\n${cspViolations.join('\n')}`);
    await page.goto(`${BASE_URL}/dpc-providers/solutions`);
    await page.getByRole('list', { name: 'My Solutions' }).getByText('Pending Approval').waitFor();

    // The facilitator approves from the emailed link (a browser of their own, signed out).
    const review = await outboxLink(facilitator, before || null);
    assert(review.includes('/dpc-providers/participations/review?token='), `the review link, got ${review}`);
    const facilitatorPage = (await newPage(browser, DESKTOP)).page;
    await facilitatorPage.goto(local(review));
    await facilitatorPage.getByRole('button', { name: 'Approve' }).waitFor();
    await facilitatorPage.getByText(solutionName).first().waitFor();
    await screenshot(facilitatorPage, 'provider-desktop-06-review');
    await facilitatorPage.getByRole('button', { name: 'Approve' }).click();
    await facilitatorPage.getByText('Approved', { exact: true }).waitFor();
    await screenshot(facilitatorPage, 'provider-desktop-07-review-approved');
    // The link is single use.
    await facilitatorPage.reload();
    await facilitatorPage.getByText('This link has expired or was already used').waitFor();

    // Back as the provider: Active, with Participation Details.
    await page.goto(detailUrl);
    await page.getByRole('heading', { name: 'Participation Details' }).waitFor();
    await page.getByRole('button', { name: 'Stop Participating' }).waitFor();
    assert((await page.getByText('Active', { exact: true }).count()) > 0, 'the state says Active');
    await page.getByRole('row', { name: /^Total/ }).waitFor();
    await screenshot(page, 'provider-desktop-08-detail-active');

    // Change the rate of the active participation: it stays Active at its rate (Stop
    // Participating kept), the requested rate shown beside it, until the facilitator approves the
    // change of rate from a new emailed link.
    const beforeChange = latestLink(facilitator);
    await page.getByRole('button', { name: 'Change Rate' }).click();
    const changeDialog = page.getByRole('dialog', { name: `Change rate for ${solutionName}` });
    await changeDialog.waitFor();
    const rateRadios = changeDialog.getByRole('radio');
    const rateOptions = changeDialog.getByRole('listitem');
    assert((await rateRadios.count()) > 1, 'the solution has more than one rate to change to');
    // participate() chose the first rate.
    assert(await rateRadios.first().isChecked(), 'the current rate is preselected');
    await rateOptions.first().getByText('current', { exact: true }).waitFor();
    const confirmChange = changeDialog.getByRole('button', { name: 'Change Rate' });
    assert(await confirmChange.isDisabled(), 'Change Rate is disabled while the current rate is chosen');
    await changeDialog.getByText(/goes to the solution facilitator for approval/).waitFor();
    await rateRadios.nth(1).check();
    await rateOptions.nth(1).getByRole('row', { name: /^Total/ }).waitFor();
    assert(!(await confirmChange.isDisabled()), 'Change Rate is enabled once another rate is chosen');
    await screenshot(page, 'provider-desktop-08a-change-rate-dialog');
    await confirmChange.click();
    const rateSent = page.getByRole('dialog', { name: 'Rate change sent' });
    await rateSent.getByText(/was sent to the solution facilitator for approval/).waitFor();
    await screenshot(page, 'provider-desktop-08b-change-rate-sent');
    await rateSent.getByRole('button', { name: 'Okay' }).click();
    await page.getByTestId('requested-rate').waitFor();
    await page.getByRole('button', { name: 'Stop Participating' }).waitFor();
    assert((await page.getByText('Active', { exact: true }).count()) > 0, 'still Active at the rate in force while the change waits');
    assert((await page.getByRole('button', { name: 'Pending Approval' }).count()) === 0, 'no Pending Approval in place of Stop Participating');
    await screenshot(page, 'provider-desktop-08c-change-rate-pending');
    // The rates table shows both rates and fits the page at 1280 px.
    await page.goto(`${BASE_URL}/dpc-providers/rates`);
    await page.getByText(/change to \$[\d,.]+ pending/).waitFor();
    const overflow = await page.locator('table').evaluate((table) => table.closest('div').scrollWidth - table.closest('div').clientWidth);
    assert(overflow <= 0, `the rates table fits without a horizontal scroll (${overflow} px over)`);
    await screenshot(page, 'provider-desktop-08d-rates-change-pending');
    const changeReview = await outboxLink(facilitator, beforeChange || null);
    assert(changeReview.includes('/dpc-providers/participations/review?token=') && changeReview !== review, `a new review link for the new rate, got ${changeReview}`);
    await facilitatorPage.goto(local(changeReview));
    await facilitatorPage.getByText(/asks for a change of rate from .* to /).waitFor();
    await screenshot(facilitatorPage, 'provider-desktop-08e-review-change-of-rate');
    await facilitatorPage.getByRole('button', { name: 'Approve' }).click();
    await facilitatorPage.getByText('Approved', { exact: true }).waitFor();
    await page.goto(detailUrl);
    await page.getByRole('button', { name: 'Stop Participating' }).waitFor();
    assert((await page.getByTestId('requested-rate').count()) === 0, 'the approved rate is in force, nothing waits');
    assert((await page.getByText('Active', { exact: true }).count()) > 0, 'Active at the new rate');

    await page.goto(`${BASE_URL}/dpc-providers/rates`);
    await page.getByRole('link', { name: solutionName }).first().waitFor();
    await screenshot(page, 'provider-desktop-09-rates');

    // On a phone: the same account, screenshots, and a second request that the facilitator declines.
    const phone = (await newPage(browser, MOBILE)).page;
    await logIn(phone, email, PASSWORD);
    await phone.waitForURL(/\/dpc-providers\/solutions$/);
    await phone.getByRole('list', { name: 'My Solutions' }).getByText('Active').waitFor();
    await screenshot(phone, 'provider-mobile-01-solutions');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Sign Out' }).waitFor();
    await screenshot(phone, 'provider-mobile-02-menu');
    await phone.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Rates' }).click();
    await phone.waitForURL(/\/dpc-providers\/rates$/);
    // The rates screen loads on demand: the solutions page stays until it renders.
    await phone.getByRole('heading', { name: 'Rates', level: 1 }).waitFor();
    await phone.getByRole('article', { name: solutionName }).waitFor();
    await screenshot(phone, 'provider-mobile-03-rates');
    await phone.goto(detailUrl);
    await phone.getByRole('button', { name: 'Stop Participating' }).waitFor();
    await screenshot(phone, 'provider-mobile-04-detail-active');
    // The change-rate dialog on a phone (cancelled: the desktop stops participating below).
    await phone.getByRole('button', { name: 'Change Rate' }).click();
    const phoneChange = phone.getByRole('dialog', { name: `Change rate for ${solutionName}` });
    const phoneRadios = phoneChange.getByRole('radio');
    await phoneRadios.first().waitFor();
    await phoneRadios.first().check();
    await phoneChange.getByRole('listitem').first().getByRole('row', { name: /^Total/ }).waitFor();
    await screenshot(phone, 'provider-mobile-04a-change-rate-dialog');
    await phoneChange.getByRole('button', { name: 'Cancel' }).click();
    await phoneChange.waitFor({ state: 'hidden' });

    const allOnPhone = phone.locator('section', { has: phone.getByRole('heading', { name: 'All Solutions' }) });
    await phone.goto(`${BASE_URL}/dpc-providers/solutions`);
    const second = allOnPhone.getByRole('article').filter({ hasNot: phone.getByText('Active', { exact: true }) }).first();
    const secondName = (await second.getByRole('link').innerText()).trim();
    await second.getByRole('link', { name: secondName }).click();
    await phone.getByRole('heading', { name: 'Rates & Fees' }).waitFor();
    const secondFacilitator = await facilitatorEmail(phone);
    const secondBefore = latestLink(secondFacilitator);
    await participate(phone, secondName, 'provider-mobile-05');
    const secondReview = await outboxLink(secondFacilitator, secondBefore || null);
    const facilitatorPhone = (await newPage(browser, MOBILE)).page;
    await facilitatorPhone.goto(local(secondReview));
    await facilitatorPhone.getByRole('button', { name: 'Decline' }).waitFor();
    await screenshot(facilitatorPhone, 'provider-mobile-06-review');
    await facilitatorPhone.getByRole('button', { name: 'Decline' }).click();
    await facilitatorPhone.getByText('Declined', { exact: true }).waitFor();
    await screenshot(facilitatorPhone, 'provider-mobile-07-review-declined');
    await phone.reload();
    await phone.getByRole('button', { name: 'Participate', exact: true }).waitFor();
    assert((await phone.getByText('Inactive', { exact: true }).count()) > 0, 'a declined request shows Inactive');

    // Stop participating (desktop): asks first, then the solution is Inactive and can be joined again.
    await page.goto(detailUrl);
    await page.getByRole('button', { name: 'Stop Participating' }).click();
    const confirm = page.getByRole('dialog', { name: 'Stop participating?' });
    await confirm.waitFor();
    await screenshot(page, 'provider-desktop-10-stop-confirm');
    await confirm.getByRole('button', { name: 'Stop Participating' }).click();
    await page.getByRole('button', { name: 'Participate', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Rates & Fees' }).waitFor();
    assert((await page.getByText('Inactive', { exact: true }).count()) > 0, 'a stopped participation shows Inactive');
    await screenshot(page, 'provider-desktop-11-detail-stopped');
  } finally {
    await browser.close();
  }
});

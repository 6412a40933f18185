import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import accountCatalogue from 'virtual:i18n-namespace/account';
import { describe, expect, it } from 'vitest';
import { I18nNamespace, I18nProvider } from '../../../i18n/index';
import { apiError, fakeApi, type ApiReply } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { StandingRequestForm } from './standing-request-form';

// A signed-in haulier asks for a standing booking (issue 27): the shared schema's messages under
// the fields before anything is sent, a saved vehicle filling the vehicle fields, the body the API
// receives, the confirmation, and the organization's refusal (403) said in words.

const ACME = '5b1e0c9e-0000-4000-8000-000000000001';
const GLOBEX = '5b1e0c9e-0000-4000-8000-000000000002';
const NORTH = '6c2f1d0a-0000-4000-8000-000000000001';
const SOUTH = '6c2f1d0a-0000-4000-8000-000000000002';
const DEPOT = '6c2f1d0a-0000-4000-8000-000000000003';
const REQUEST = 'POST /api/public/haulier/standing-requests';

function openForm(answer: () => ApiReply = () => ({ status: 201, body: { id: 'standing-1', status: 'requested' } })) {
  const api = fakeApi({
    'GET /api/public/organizations': () => ({ body: [{ id: ACME, name: 'Acme Logistics' }, { id: GLOBEX, name: 'Globex Freight' }] }),
    'GET /api/public/sites': () => ({
      body: [
        { id: NORTH, name: 'North Terminal', orgId: ACME },
        { id: SOUTH, name: 'South Yard', orgId: ACME },
        { id: DEPOT, name: 'Globex Depot', orgId: GLOBEX },
      ],
    }),
    'GET /api/public/haulier/vehicles': () => ({
      body: [{ id: 'vehicle-1', label: 'Blue rigid', vehicleType: 'rigid', vehicleRegistration: 'XYZ789', vehicleHeightM: 3.8, vehicleLengthM: 9.5 }],
    }),
    [REQUEST]: answer,
  });
  const rendered = renderWithProviders(
    <I18nProvider>
      <I18nNamespace catalogue={accountCatalogue}>
        <MemoryRouter>
          <StandingRequestForm />
        </MemoryRouter>
      </I18nNamespace>
    </I18nProvider>,
  );
  return { ...rendered, api };
}

const fieldError = (text: string) => screen.findByText(text, { selector: '.mantine-InputWrapper-error' });

async function fillIn(user: ReturnType<typeof openForm>['user']) {
  await user.selectOptions(await screen.findByLabelText(/^Organization/), 'Globex Freight');
  // Globex has one site: chosen at once.
  expect(screen.getByLabelText(/^Site/)).toHaveValue(DEPOT);
  await user.click(screen.getByRole('checkbox', { name: 'Wed' }));
  await user.click(screen.getByRole('checkbox', { name: 'Mon' }));
  await user.type(screen.getByLabelText(/^Start time/), '07:30');
  await user.type(screen.getByLabelText(/^From/), '2030-03-04');
  await user.type(screen.getByLabelText(/^TSR Number/), 'WEEKLY-GLOBEX');
  await user.type(screen.getByLabelText(/^Company Name/), 'Coastal Freight');
  await user.type(screen.getByLabelText(/^Contact Name/), 'Kim Lee');
  await user.selectOptions(screen.getByLabelText('Use a saved vehicle'), 'XYZ789 · Blue rigid');
}

describe('StandingRequestForm', () => {
  it("shows the shared schema's messages under the fields and sends nothing", async () => {
    const { user, api } = openForm();
    await user.click(await screen.findByRole('button', { name: 'Send request' }));

    expect(await fieldError('Organization is required')).toBeInTheDocument();
    expect(await fieldError('Site is required')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one weekday')).toBeInTheDocument();
    expect(await fieldError('Start time is required')).toBeInTheDocument();
    expect(await fieldError('TSR Number is required')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Organization/)).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(REQUEST)).toEqual([]);
  });

  it('fills the vehicle from a saved one, sends the request and says it waits for approval', async () => {
    const { user, api } = openForm();
    await fillIn(user);
    expect(screen.getByLabelText(/^Vehicle Registration/)).toHaveValue('XYZ789');
    expect(screen.getByLabelText(/^Vehicle Height/)).toHaveValue(3.8);
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Requested — waiting for approval');
    expect(api.callsTo(REQUEST).map((call) => call.body)).toEqual([
      {
        orgId: GLOBEX,
        siteId: DEPOT,
        weekdays: [1, 3],
        startLocal: '07:30',
        durationMin: 60,
        startsOn: '2030-03-04',
        endsOn: null,
        tsrNumber: 'WEEKLY-GLOBEX',
        tenantName: 'Coastal Freight',
        contactName: 'Kim Lee',
        bookingType: 'delivery',
        vehicleType: 'rigid',
        vehicleRegistration: 'XYZ789',
        vehicleHeightM: 3.8,
        vehicleLengthM: 9.5,
        language: 'en',
      },
    ]);

    // Another request starts from an empty form.
    await user.click(screen.getByRole('button', { name: 'Request another' }));
    expect(await screen.findByLabelText(/^Organization/)).toHaveValue('');
  });

  it("says in words when the organization does not take the haulier's requests, and keeps what was entered", async () => {
    const { user, api } = openForm(() => apiError(403, 'forbidden', 'Not allowed'));
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Standing bookings are not open to you here')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(REQUEST)).toHaveLength(1));
    expect(screen.getByLabelText(/^TSR Number/)).toHaveValue('WEEKLY-GLOBEX');
  });
});

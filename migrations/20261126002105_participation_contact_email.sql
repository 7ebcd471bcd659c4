-- The address a provider gives when asking to participate (issue 21: the provider solution form's
-- e-mail): the facilitator's review shows it and the decision is emailed to it. Null for
-- participations asked for before it existed: their decision goes to the account that agreed.
alter table participations add column contact_email text;

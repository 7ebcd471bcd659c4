-- Member phone numbers have one stored form, E.164 (+1 and ten digits): the server wrote them
-- "303 555 0123" before. A stored number that is a valid North American number (area code and
-- exchange starting 2-9, with or without the country code) is rewritten; anything else is left
-- as it was, since guessing at it could make it someone else's number.
update members
set phone = '+1' || right(regexp_replace(phone, '\D', '', 'g'), 10)
where phone is not null
  and phone !~ '^\+1[2-9][0-9]{2}[2-9][0-9]{6}$'
  and regexp_replace(phone, '\D', '', 'g') ~ '^1?[2-9][0-9]{2}[2-9][0-9]{6}$';

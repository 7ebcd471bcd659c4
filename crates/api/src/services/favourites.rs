//! The member's favourites and waitlists as other features read them: the heart and the
//! waitlist flag on a profile, and the sets that flag search cards and pins.

use search::Favourites;
use store::favourites::Entity;

use crate::error::ApiResult;
use crate::state::AppState;

/// Whether `member_id` marked this item; `false` signed out.
pub async fn is_favourite(state: &AppState, member_id: Option<i64>, entity: Entity, id: i64) -> ApiResult<bool> {
    match member_id {
        Some(member_id) => Ok(store::favourites::is_favourite(&state.pool, member_id, entity, id).await?),
        None => Ok(false),
    }
}

/// Whether `member_id` is on the clinic's waitlist (not yet told it opened); `false` signed out.
pub async fn is_waitlisted(state: &AppState, member_id: Option<i64>, location_id: i64) -> ApiResult<bool> {
    match member_id {
        Some(member_id) => Ok(store::waitlist::is_waitlisted(&state.pool, member_id, location_id).await?),
        None => Ok(false),
    }
}

/// The member's favourite clinics and clinicians and the clinics whose waitlist they are on,
/// read in one query, which flag cards and pins; none signed out.
pub async fn favourites_of(state: &AppState, member_id: Option<i64>) -> ApiResult<Option<Favourites>> {
    let Some(member_id) = member_id else {
        return Ok(None);
    };
    let marks = store::waitlist::market_marks(&state.pool, member_id).await?;
    Ok(Some(Favourites {
        location_ids: marks.favourite_locations.into_iter().collect(),
        clinician_ids: marks.favourite_clinicians.into_iter().collect(),
        waitlisted_location_ids: marks.waitlisted_locations.into_iter().collect(),
    }))
}

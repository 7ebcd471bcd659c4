//! The member's favourites as other features read them: the heart on a profile, and the sets
//! that flag search cards and pins.

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

/// The member's favourite clinics and clinicians, which flag cards and pins; none signed out.
pub async fn favourites_of(state: &AppState, member_id: Option<i64>) -> ApiResult<Option<Favourites>> {
    let Some(member_id) = member_id else {
        return Ok(None);
    };
    let (locations, clinicians) = store::favourites::favourite_ids(&state.pool, member_id).await?;
    Ok(Some(Favourites {
        location_ids: locations.into_iter().collect(),
        clinician_ids: clinicians.into_iter().collect(),
    }))
}

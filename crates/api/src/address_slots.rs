//! How many connections (or requests) each client holds at once, counted per [`ClientKey`]: a
//! slot is taken when one opens and given back when its guard drops. One table is shared by
//! every listener and connection task that is handed it (an `Arc`), so the bound holds for the
//! process whatever the number of accept loops.
//!
//! The connection loop counts connections by their peer address, before a byte is read: it
//! cannot see a proxy header then. Behind a proxy every connection comes from the proxy, so the
//! edge counts requests in flight by the client address of the proxy header instead (see
//! README, "Running in front of the internet").

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use crate::client_address::ClientKey;

/// Open slots per client, at most `limit` each (0: no limit).
#[derive(Debug)]
pub struct AddressSlots {
    limit: usize,
    open: Mutex<HashMap<ClientKey, usize>>,
}

/// A slot held by one connection or request; dropping it gives the slot back.
#[derive(Debug)]
pub struct AddressSlot {
    slots: Arc<AddressSlots>,
    key: ClientKey,
}

impl AddressSlots {
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            limit,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for the client at `address`, or `None` when it already holds `limit`.
    pub fn try_take(self: &Arc<Self>, address: IpAddr) -> Option<AddressSlot> {
        self.try_take_key(ClientKey::of(address))
    }

    /// [`Self::try_take`] for a client already keyed.
    pub fn try_take_key(self: &Arc<Self>, key: ClientKey) -> Option<AddressSlot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let held = open.entry(key).or_insert(0);
        if self.limit > 0 && *held >= self.limit {
            return None;
        }
        *held += 1;
        Some(AddressSlot {
            slots: Arc::clone(self),
            key,
        })
    }

    /// The slots `address` holds now.
    pub fn held_by(&self, address: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.get(&ClientKey::of(address)).copied().unwrap_or(0)
    }

    /// How many clients hold a slot (entries are removed with their last slot).
    pub fn clients(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = open.get_mut(&self.key) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_gets_its_limit_and_slots_come_back_when_dropped() {
        let slots = AddressSlots::new(2);
        let attacker: IpAddr = "198.51.100.7".parse().unwrap();
        let neighbour: IpAddr = "2001:db8:1:2::7".parse().unwrap();
        let same_64: IpAddr = "2001:db8:1:2::8".parse().unwrap();
        let first = slots.try_take(attacker).unwrap();
        let _second = slots.try_take(attacker).unwrap();
        assert!(slots.try_take(attacker).is_none(), "a third is refused");
        let _neighbour = slots.try_take(neighbour).unwrap();
        let _same_network = slots.try_take(same_64).unwrap();
        assert!(slots.try_take(same_64).is_none(), "one /64 is one client");
        drop(first);
        assert_eq!(slots.held_by(attacker), 1);
        assert!(slots.try_take(attacker).is_some(), "a slot came back");
        assert_eq!(slots.clients(), 2);
    }

    #[test]
    fn the_table_forgets_a_client_with_its_last_slot_and_zero_means_no_limit() {
        let slots = AddressSlots::new(0);
        let address: IpAddr = "203.0.113.9".parse().unwrap();
        let held: Vec<_> = (0..1000).map(|_| slots.try_take(address).unwrap()).collect();
        assert_eq!(slots.held_by(address), 1000);
        drop(held);
        assert_eq!(slots.clients(), 0);
    }
}

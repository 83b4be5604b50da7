//! The messages waiting to be handled, and `$/cancelRequest`.
//!
//! The server handles one message at a time, so a request can only be
//! cancelled while it waits. Before answering a request, the loop takes
//! every message that has already arrived ([`Inbox::drain`]) into a
//! queue, in order; a `$/cancelRequest` among them naming the request
//! being answered or one still queued marks that request, which is then
//! answered with `RequestCancelled` (-32800) instead of being handled (the
//! specification asks for that code when a request is not answered
//! because of a cancellation). A cancellation of a request already
//! answered, or of an unknown id, is dropped, so the marks never outlive
//! their requests. Every other message keeps its place in the queue.

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError};
use lsp_server::{Message, RequestId};

/// The method of a cancellation.
pub(crate) const CANCEL: &str = "$/cancelRequest";

/// What [`Inbox::next`] got.
pub(crate) enum Next {
    Message(Message),
    /// The timeout passed with nothing to handle.
    Timeout,
    /// The client is gone.
    Closed,
}

#[derive(Default)]
pub(crate) struct Inbox {
    queue: VecDeque<Message>,
    cancelled: HashSet<RequestId>,
}

impl Inbox {
    /// The next message: a queued one, else one from `rx` (waiting at most
    /// `timeout` when given).
    pub(crate) fn next(&mut self, rx: &Receiver<Message>, timeout: Option<Duration>) -> Next {
        if let Some(message) = self.queue.pop_front() {
            return Next::Message(message);
        }
        match timeout {
            None => rx.recv().map_or(Next::Closed, Next::Message),
            Some(t) => match rx.recv_timeout(t) {
                Ok(message) => Next::Message(message),
                Err(RecvTimeoutError::Timeout) => Next::Timeout,
                Err(RecvTimeoutError::Disconnected) => Next::Closed,
            },
        }
    }

    /// Queues every message already waiting in `rx`, then applies the
    /// cancellations among the queued messages to `current` and to the
    /// queued requests (a cancellation is consumed either way).
    pub(crate) fn drain(&mut self, rx: &Receiver<Message>, current: &RequestId) {
        while let Ok(message) = rx.try_recv() {
            self.queue.push_back(message);
        }
        if !self.queue.iter().any(is_cancel) {
            return;
        }
        let mut pending: HashSet<RequestId> = self
            .queue
            .iter()
            .filter_map(|m| match m {
                Message::Request(r) => Some(r.id.clone()),
                _ => None,
            })
            .collect();
        pending.insert(current.clone());
        let mut kept = VecDeque::with_capacity(self.queue.len());
        for message in self.queue.drain(..) {
            match &message {
                Message::Notification(n) if n.method == CANCEL => {
                    let id = n.params.get("id").cloned();
                    if let Some(id) = id.and_then(|v| serde_json::from_value::<RequestId>(v).ok()) {
                        if pending.contains(&id) {
                            self.cancelled.insert(id);
                        }
                    }
                }
                _ => kept.push_back(message),
            }
        }
        self.queue = kept;
    }

    /// Whether `id` was cancelled (forgetting the mark).
    pub(crate) fn take_cancelled(&mut self, id: &RequestId) -> bool {
        self.cancelled.remove(id)
    }
}

fn is_cancel(message: &Message) -> bool {
    matches!(message, Message::Notification(n) if n.method == CANCEL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_server::{Notification, Request};
    use serde_json::json;

    fn request(id: i32) -> Message {
        Message::Request(Request::new(id.into(), "x".into(), json!(null)))
    }

    fn cancel(id: serde_json::Value) -> Message {
        Message::Notification(Notification::new(CANCEL.into(), json!({ "id": id })))
    }

    #[test]
    fn cancels_pending_requests_only_and_keeps_the_order() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut inbox = Inbox::default();
        for m in [request(2), cancel(json!(2)), cancel(json!(1)), request(3)] {
            let _ = tx.send(m);
        }
        // Unknown and answered ids are dropped: 9 is not pending.
        let _ = tx.send(cancel(json!(9)));
        let _ = tx.send(cancel(json!("s")));
        inbox.drain(&rx, &RequestId::from(1));
        assert!(inbox.take_cancelled(&RequestId::from(1)));
        assert!(inbox.take_cancelled(&RequestId::from(2)));
        assert!(!inbox.take_cancelled(&RequestId::from(2)), "forgotten");
        assert!(!inbox.take_cancelled(&RequestId::from(9)));
        assert!(inbox.cancelled.is_empty());
        let ids: Vec<String> = std::iter::from_fn(|| match inbox.queue.pop_front() {
            Some(Message::Request(r)) => Some(r.id.to_string()),
            Some(_) => Some("other".into()),
            None => None,
        })
        .collect();
        assert_eq!(ids, ["2", "3"]);
    }
}

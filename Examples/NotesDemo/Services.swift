// The services of a small notes app, each behind a protocol.

/// Tells the time; one per app.
protocol Clock: Sendable {
    var now: String { get }
}

/// Keeps notes.
protocol NoteStore: AnyObject {
    func save(_ note: Note)
    var count: Int { get }
}

/// Turns a note into a document.
protocol Exporter {
    func export(_ note: Note) -> String
}

/// Edits one note; made per note, with the note given at resolve time.
protocol Editor: AnyObject {
    var note: Note { get }
    var title: String { get set }
    func save()
}

struct Note: Sendable {
    var text: String
}

final class SystemClock: Clock {
    let now = "2026-11-21 09:00"
}

final class MemoryNoteStore: NoteStore {
    private let clock: any Clock
    private var notes: [(Note, String)] = []

    init(clock: any Clock) { self.clock = clock }

    func save(_ note: Note) { notes.append((note, clock.now)) }
    var count: Int { notes.count }
}

struct MarkdownExporter: Exporter {
    func export(_ note: Note) -> String { "# Note\n\n\(note.text)" }
}

struct PDFExporter: Exporter {
    func export(_ note: Note) -> String { "%PDF-1.7 … (\(note.text.count) characters)" }
}

final class NoteEditor: Editor {
    let note: Note
    var title = "Untitled"
    private let store: any NoteStore

    init(note: Note, store: any NoteStore) {
        self.note = note
        self.store = store
    }

    func save() { store.save(note) }
}

// A window and its toolbar refer to each other: the toolbar gets its window after construction.

final class Window {
    let toolbar: Toolbar
    init(toolbar: Toolbar) { self.toolbar = toolbar }
}

final class Toolbar {
    weak var window: Window?
}

// A mistake: a sync service that needs a session, whose session needs the sync service back.

protocol SyncService {}
protocol Session {}

struct CloudSync: SyncService {
    init(session: any Session) {}
}

struct UserSession: Session {
    init(sync: any SyncService) {}
}

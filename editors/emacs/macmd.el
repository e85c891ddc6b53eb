;;; macmd.el --- MacMD for Markdown notebooks, with eglot or lsp-mode -*- lexical-binding: t; -*-

;; Copyright (c) MacMD contributors. MIT License.

;; Author: MacMD contributors
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (markdown-mode "2.5"))
;; URL: https://github.com/macmd/macmd
;; Keywords: languages, markdown, lsp

;;; Commentary:

;; MacMD's language server (`macmd lsp') for Markdown buffers, with either LSP client of Emacs:
;; eglot (built into Emacs 29+; GNU ELPA or Debian's elpa-eglot for 27 and 28) or lsp-mode
;; (MELPA, or Debian's elpa-lsp-mode).  markdown-mode comes from NonGNU ELPA or MELPA (or
;; Debian's elpa-markdown-mode).  Neither client is loaded by this file: each finds MacMD
;; registered when it loads.
;;
;; With eglot:
;;
;;   (add-to-list 'load-path "/path/to/macmd/editors/emacs")
;;   (require 'macmd)
;;   (add-hook 'markdown-mode-hook #'eglot-ensure)
;;
;; With lsp-mode:
;;
;;   (add-to-list 'load-path "/path/to/macmd/editors/emacs")
;;   (require 'macmd)
;;   (setq lsp-auto-guess-root t)             ; the notebook's root, without asking
;;   (setq lsp-enable-snippet nil)            ; unless yasnippet is installed
;;   (setq lsp-completion-provider :none)     ; unless company is installed
;;   (add-hook 'markdown-mode-hook #'lsp)     ; or #'lsp-deferred
;;
;; or, as a package: M-x package-install-file RET /path/to/macmd/editors/emacs/macmd.el, then
;; the same lines without the load-path.  `macmd' must be on `exec-path' (or set
;; `macmd-server-command', which also takes `--log-file' and `--log-level').  Server settings
;; (the keys of `.macmd.json') go in `macmd-settings', sent as `initializationOptions' by both
;; clients; with eglot, `eglot-workspace-configuration' (section `macmd') works too.
;;
;; A notebook's root is the nearest folder upwards holding one of `macmd-root-markers'
;; (`.macmd.json', an Obsidian vault, a git repository, ...), found through `project.el' by
;; both clients (lsp-mode uses it when `lsp-auto-guess-root' is t; otherwise it offers it once
;; as the folder to import).  With lsp-mode, MacMD is the Markdown server (priority 1):
;; lsp-markdown's remark server (`unified') is disabled, never offered for installation.
;;
;; Typing help (`macmd-typing-mode', on by itself in the Markdown buffers a MacMD server
;; manages; `macmd-typing' nil keeps it off), asked of the server key by key:
;;
;;   RET      a line break that continues a list, a quote or a table (`- item' RET gives `- '),
;;            renumbers an ordered list, and ends the list on an empty item; where there is
;;            nothing to continue it is markdown-mode's RET.  C-j is a plain line break.
;;   ` [ |    a fence's third backtick gets its closing fence, `[[' its `]]', a `|' ending a
;;            table row aligns the table.
;;   ( [ { ` * _ $ ~ " '   pairs close where the server says they do (`macmd/pairs': not inside
;;            words, code, URLs, after a backslash; quotes only in the front matter); typing
;;            the closing character in front of the same one steps over it, DEL between an
;;            empty pair deletes both, and `$5' or `$ ' leave one `$' (`macmd-pairs' nil turns
;;            pairs off).
;;   C-M-i    completes links (`[[', `](', `#'), headings, tags and the snippets (`table',
;;            `link', ...): the completion covers what the server replaces (`[[Seed Cat'
;;            completes as a whole), ignores case and lists the server's best first; with
;;            `completion-cycle-threshold' set (e.g. t), C-M-i takes the first at once.
;;            Without yasnippet, snippets are inserted as text (their placeholders' text).
;;   M-q      fills the paragraph as markdown-mode does (a table is left alone).
;;
;; RET and DEL are an undo step each; the characters are undone with the text typed before them,
;; as Emacs undoes typing.  Each key waits for the server at most `macmd-typing-timeout' seconds,
;; then is typed as it is.  The clients' own on-type formatting is off in these buffers (it does
;; not run on markdown-mode's RET and leaves point before the text it inserts at point).
;;
;; Also: flymake shows the server's diagnostics (in a terminal, where Emacs cannot draw a wavy
;; underline, errors, warnings and notes are underlined), and eldoc shows the diagnostics at
;; point before the hover text.  With eglot, workspace edits that create, rename or delete files
;; (Create note, renaming a note) work, which eglot 1.9 cannot do by itself; with lsp-mode, their
;; parts are applied in order.  `M-x macmd-preview' opens the note in the browser (`browse-url')
;; at the heading above point, served by Emacs itself on 127.0.0.1 under a random token
;; (`macmd-preview-server'): each page is asked of the server (`macmd/preview') when the browser
;; asks for it, so a link to a note opens that note's page, a tag chip opens the page of the
;; tag's notes, images come from the notebook, and the page shows the buffer's unsaved edits (it
;; reloads itself every `macmd-preview-refresh-seconds').  With `macmd-preview-server' nil it
;; writes the page to `macmd-preview-folder' instead (absolute `file:' URLs) and again on save.
;; With a prefix argument it asks for the theme.  Requests are asynchronous: Emacs stays
;; responsive while the server renders.
;;
;; Invariants: requests go only to the MacMD server of the current buffer (never to other
;; servers of lsp-mode's workspaces); positions are counted as the client negotiated (UTF-16 with
;; eglot, code points with lsp-mode, which announces utf-32); a typed character is never lost
;; (the server only adds around it); each note has one preview file (its name and a hash of its
;; path, in a folder kept across sessions), and the browser is opened once per `macmd-preview',
;; not on every save.

;;; Code:

(require 'markdown-mode)
(require 'browse-url)
(require 'cl-lib)
(require 'subr-x)
(require 'seq)
(require 'project)
(require 'url-util)
(require 'face-remap)
(require 'xref)

;; eglot and lsp-mode are optional: what this file needs of them is declared here.
(declare-function eglot-current-server "eglot")
(declare-function eglot--server-info "eglot")
(declare-function eglot--capabilities "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function eglot--signal-textDocument/didOpen "eglot")
(declare-function eglot--signal-textDocument/didClose "eglot")
(declare-function eglot--pos-to-lsp-position "eglot")
(declare-function eglot--lsp-position-to-point "eglot")
(declare-function eglot--TextDocumentIdentifier "eglot")
(declare-function eglot--uri-to-path "eglot")
(declare-function eglot-path-to-uri "eglot")
(declare-function jsonrpc-async-request "jsonrpc")
(declare-function lsp-workspaces "lsp-mode")
(declare-function lsp--workspace-client "lsp-mode")
(declare-function lsp--workspace-server-capabilities "lsp-mode")
(declare-function lsp--client-server-id "lsp-mode")
(declare-function lsp-cancel-request-by-token "lsp-mode")
(declare-function lsp-request-async "lsp-mode")
(declare-function lsp--point-to-position "lsp-mode")
(declare-function lsp--line-character-to-point "lsp-mode")
(declare-function lsp--buffer-uri "lsp-mode")
(declare-function lsp--uri-to-path "lsp-mode")
(declare-function lsp--apply-text-document-edit "lsp-mode")
(declare-function lsp--update-on-type-formatting-hook "lsp-mode")
(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-show-xrefs "lsp-mode")
(declare-function lsp--locations-to-xref-items "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")
(declare-function lsp-activate-on "lsp-mode")
(declare-function flymake-eldoc-function "flymake")
(declare-function flymake-diagnostics "flymake")
(declare-function flymake-diagnostic-text "flymake")
(declare-function macmd-eglot-server--eieio-childp "macmd")   ; `defclass', once eglot loads
(defvar eglot--managed-mode)
(defvar eglot-server-programs)
(defvar eglot-ignored-server-capabilities)
(defvar lsp--cur-workspace)
(defvar lsp--buffer-workspaces)
(defvar lsp-response-timeout)
(defvar lsp-enable-on-type-formatting)
(defvar lsp-language-id-configuration)
(defvar lsp-disabled-clients)
(defvar lsp-managed-mode)
(defvar eldoc-documentation-strategy)
(defvar eldoc-documentation-functions)
(defvar electric-pair-mode)
(defvar macmd-typing-mode)   ; `define-minor-mode' below; let-bound in `macmd--fallback'

(defgroup macmd nil
  "MacMD, the Markdown notebook language server."
  :group 'tools
  :prefix "macmd-")

(defcustom macmd-server-command '("macmd" "lsp")
  "The command that runs MacMD's language server: the program, then its arguments.
For a log, add e.g. \"--log-file\" \"/tmp/macmd.log\" \"--log-level\" \"debug\".
Read each time a server starts, by eglot and by lsp-mode."
  :type '(repeat string))

(defcustom macmd-settings nil
  "Server settings, sent as `initializationOptions' by eglot and by lsp-mode.
A plist of the keys of `.macmd.json' (docs/configuration.md), for example
\(:locale \"de\" :preview (:theme \"dark\")); a notebook's `.macmd.json' wins
over them.  With eglot, `eglot-workspace-configuration' (section `macmd') works
too."
  :type 'plist)

(defcustom macmd-typing t
  "Whether `macmd-typing-mode' turns on by itself.
It does in the Markdown buffers that a MacMD server manages (eglot or lsp-mode)."
  :type 'boolean)

(defcustom macmd-pairs t
  "Whether `macmd-typing-mode' closes pairs where the server says they close.
Then a closing character steps over the same one after point, and DEL deletes an
empty pair."
  :type 'boolean)

(defcustom macmd-typing-timeout 0.3
  "Seconds a key of `macmd-typing-mode' waits for the server.
When the answer is later, the key is typed as it is without the mode."
  :type 'number)

(defcustom macmd-preview-theme nil
  "Theme of `macmd-preview' pages; nil lets the server choose (default \"light\")."
  :type '(choice (const :tag "Server default" nil)
                 (const "light") (const "dark") (const "basic") (const "grass")
                 (const "homebrew") (const "man-page") (const "novel") (const "ocean")
                 (const "pro") (const "red-sands") (const "silver-aerogel")
                 (const "solid-colors")))

(defcustom macmd-preview-refresh-seconds 2
  "The preview page reloads itself every this many seconds, so a save shows up.
Zero writes the page as the server made it; then reload the browser by hand."
  :type 'integer)

(defcustom macmd-preview-server t
  "Non-nil: `macmd-preview' serves the pages from Emacs, on 127.0.0.1.
Each page is rendered when the browser asks for it, so a link to a note opens
that note's page, a tag chip opens the page of the tag's notes, and the page
shows unsaved edits.  Nil writes one page file per note to
`macmd-preview-folder' instead, whose links lead to the notes' files."
  :type 'boolean)

(defcustom macmd-preview-folder nil
  "Where `macmd-preview' writes its pages, one per note, kept across sessions.
Nil is macmd/preview/ in $XDG_CACHE_HOME when that is set, else macmd-preview/
in `user-emacs-directory'."
  :type '(choice (const :tag "The cache folder" nil) directory))

(defconst macmd-preview-themes
  '("light" "dark" "basic" "grass" "homebrew" "man-page" "novel" "ocean" "pro"
    "red-sands" "silver-aerogel" "solid-colors")
  "The themes `macmd/preview' accepts.")

(defconst macmd-root-markers '(".macmd.json" ".obsidian" ".git" ".marksman.toml" ".moxide.toml" "book.toml" "mkdocs.yml")
  "What marks a notebook's root.
MacMD's settings, an Obsidian vault, a git repository, marksman's and
markdown-oxide's settings.")

;;;; The notebook's root

(defun macmd-project-find (dir)
  "The notebook around DIR for a Markdown buffer, as `(macmd . ROOT)'.
ROOT is the nearest folder upwards holding one of `macmd-root-markers' (so a
vault inside a git repository is its own notebook).  Nil for other buffers, or
where no folder has a marker."
  (when (derived-mode-p 'markdown-mode 'gfm-mode 'markdown-ts-mode)
    (when-let ((root (locate-dominating-file
                      dir (lambda (folder)
                            (seq-some (lambda (marker) (file-exists-p (expand-file-name marker folder)))
                                      macmd-root-markers)))))
      (cons 'macmd (expand-file-name root)))))

(cl-defmethod project-root ((project (head macmd)))
  (cdr project))

;; Before the version-control lookup: the nearest marker wins.
(add-hook 'project-find-functions #'macmd-project-find -90)

;;;; eglot

(defvar macmd--eglot-server nil
  "The MacMD eglot server whose `workspace/applyEdit' is being handled, if any.")

(defun macmd--eglot-contact (&optional _interactive)
  "The contact `eglot-server-programs' gives for Markdown buffers.
It is `macmd-server-command', run as a `macmd-eglot-server'."
  (cons 'macmd-eglot-server macmd-server-command))

(with-eval-after-load 'eglot
  (defclass macmd-eglot-server (eglot-lsp-server) ()
    :documentation "MacMD's language server, as eglot knows it.
It is told that workspace edits may create, rename and delete files, which
`macmd--eglot-apply-workspace-edit' does, and that the server may ask with
`window/showMessageRequest', which eglot answers with a prompt.")

  (cl-defmethod eglot-client-capabilities ((_server macmd-eglot-server))
    (let* ((capabilities (cl-call-next-method))
           (workspace (plist-get capabilities :workspace))
           (window (plist-get capabilities :window)))
      (plist-put capabilities :workspace
                 (plist-put workspace :workspaceEdit
                            (list :documentChanges t
                                  :resourceOperations ["create" "rename" "delete"])))
      ;; Eglot answers `window/showMessageRequest' with a prompt without saying so: say it, so
      ;; that a rename that merges two tags asks first.
      (plist-put capabilities :window
                 (plist-put window :showMessage
                            (list :messageActionItem (list :additionalPropertiesSupport :json-false))))))

  (cl-defmethod eglot-initialization-options ((server macmd-eglot-server))
    (or macmd-settings (cl-call-next-method server)))

  (cl-defmethod eglot-handle-request ((server macmd-eglot-server)
                                      (_method (eql workspace/applyEdit)) &rest _)
    (let ((macmd--eglot-server server))
      (cl-call-next-method)))

  ;; One server for the Markdown modes, with the language id "markdown"; earlier entries of the
  ;; list win over later ones.
  (add-to-list 'eglot-server-programs
               '(((markdown-mode :language-id "markdown")
                  (gfm-mode :language-id "markdown")
                  (markdown-ts-mode :language-id "markdown"))
                 . macmd--eglot-contact))
  (advice-add 'eglot--apply-workspace-edit :around #'macmd--eglot-apply-workspace-edit)
  (add-hook 'eglot-managed-mode-hook #'macmd--managed))

(defun macmd--macmd-eglot-server-p (server)
  "Whether the eglot SERVER is MacMD's."
  (and server
       (or (and (fboundp 'macmd-eglot-server-p) (macmd-eglot-server-p server))
           (equal (plist-get (eglot--server-info server) :name) "macmd"))))

(defun macmd--eglot-server ()
  "The MacMD eglot server of the current buffer, or nil."
  (and (bound-and-true-p eglot--managed-mode)
       (fboundp 'eglot-current-server)
       (let ((server (eglot-current-server)))
         (and (macmd--macmd-eglot-server-p server) server))))

(defun macmd--eglot-resource-operation (operation)
  "Carries out the CreateFile, RenameFile or DeleteFile OPERATION (a plist)."
  (let ((options (plist-get operation :options)))
    (pcase (plist-get operation :kind)
      ("create"
       (let ((file (eglot--uri-to-path (plist-get operation :uri))))
         ;; An existing file is left as it is, unless it is to be overwritten.
         (when (or (not (file-exists-p file)) (eq (plist-get options :overwrite) t))
           (make-directory (file-name-directory file) t)
           (write-region "" nil file nil 'silent)
           (when-let ((buffer (find-buffer-visiting file)))
             (with-current-buffer buffer (set-visited-file-modtime))))
         ;; Visited, so that the edits that fill it go to its buffer without asking.
         (find-file-noselect file)))
      ("rename"
       (let* ((old (eglot--uri-to-path (plist-get operation :oldUri)))
              (new (eglot--uri-to-path (plist-get operation :newUri)))
              (buffer (find-buffer-visiting old)))
         (unless (and (file-exists-p new) (eq (plist-get options :ignoreIfExists) t)
                      (not (eq (plist-get options :overwrite) t)))
           (make-directory (file-name-directory new) t)
           (rename-file old new (eq (plist-get options :overwrite) t))
           (when buffer
             (with-current-buffer buffer
               (let ((managed (bound-and-true-p eglot--managed-mode)))
                 (when managed (eglot--signal-textDocument/didClose))
                 ;; Keeps unsaved edits, asks nothing.
                 (set-visited-file-name new t t)
                 (when managed (eglot--signal-textDocument/didOpen))))))))
      ("delete"
       (let ((file (eglot--uri-to-path (plist-get operation :uri))))
         (when-let ((buffer (find-buffer-visiting file)))
           (kill-buffer buffer))
         (cond ((file-directory-p file)
                (delete-directory file (eq (plist-get options :recursive) t)))
               ((file-exists-p file) (delete-file file))
               ((not (eq (plist-get options :ignoreIfNotExists) t))
                (error "MacMD: no file %s to delete" file))))))))

(defun macmd--eglot-apply-workspace-edit (apply edit &optional confirm)
  "Around `eglot--apply-workspace-edit' (APPLY): file operations too.
A MacMD server's EDIT whose documentChanges create, rename or delete files is
applied in order, the file operations here and the text edits between them by
eglot (CONFIRM as eglot has it).  Eglot 1.9 takes those operations for text
edits of a file named \"\"."
  (let ((changes (append (plist-get edit :documentChanges) nil)))
    (if (not (and (seq-some (lambda (change) (plist-get change :kind)) changes)
                  (or macmd--eglot-server (macmd--eglot-server))))
        (funcall apply edit confirm)
      (let ((run '()))
        (dolist (change (append changes '(:end)))
          (if (and (consp change) (not (plist-get change :kind)))
              (push change run)
            (when run
              (funcall apply (list :documentChanges (vconcat (nreverse run))) confirm)
              (setq run '()))
            (unless (eq change :end)
              (macmd--eglot-resource-operation change))))))))

;;;; lsp-mode

(defun macmd--lsp-command ()
  "The command lsp-mode runs: `macmd-server-command'."
  macmd-server-command)

(with-eval-after-load 'lsp-mode
  ;; gfm-mode's buffers are Markdown too (lsp-mode knows only markdown-mode).
  (add-to-list 'lsp-language-id-configuration '(gfm-mode . "markdown"))
  (add-to-list 'lsp-language-id-configuration '(markdown-ts-mode . "markdown"))
  ;; lsp-markdown's remark server (`unified', priority -1) is never offered nor installed
  ;; through npm for Markdown: MacMD serves it.
  (add-to-list 'lsp-disabled-clients 'unified)
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection #'macmd--lsp-command)
    :activation-fn (lsp-activate-on "markdown")
    :priority 1
    :server-id 'macmd
    :initialization-options (lambda () macmd-settings)
    ;; The command of MacMD's code lenses ("3 backlinks"): the places, in an xref list.
    :action-handlers (let ((handlers (make-hash-table :test 'equal)))
                       (puthash "macmd.showReferences" #'macmd--lsp-show-references handlers)
                       handlers)
    ;; lsp-mode 8 counts columns in characters (code points): say so, so that the server does.
    :custom-capabilities '((general . ((positionEncodings . ["utf-32"]))))))
  (add-hook 'lsp-managed-mode-hook #'macmd--managed)
  ;; Before lsp-mode turns flymake on in the buffer.
  (add-hook 'lsp-configure-hook #'macmd--flymake-backends -90)
  ;; `lsp-completion-mode' empties the buffer's `completion-at-point-functions'.
  (add-hook 'lsp-completion-mode-hook #'macmd--completion-first)
  ;; lsp-mode's eldoc shows the hover text alone: the diagnostics at point go first.
  (advice-add 'lsp--eldoc-message :filter-args #'macmd--lsp-eldoc-message)
  ;; lsp-mode 8 applies a workspace edit's text edits before its file operations.
  (advice-add 'lsp--apply-workspace-edit :around #'macmd--lsp-apply-workspace-edit))

(defun macmd--lsp-show-references (command)
  "Shows the places of a MacMD code lens's COMMAND (`macmd.showReferences') with xref.
Its arguments are the note's URI, the lens's position and the places, as LSP locations."
  (let ((places (elt (macmd--json-get command "arguments") 2)))
    (if (seq-empty-p places)
        (message "%s" (macmd--json-get command "title"))
      (lsp-show-xrefs (lsp--locations-to-xref-items places) nil t))))

(defun macmd--json-get (object key)
  "The KEY (a string) of the JSON OBJECT.
OBJECT is a hash table (lsp-mode) or a plist (eglot)."
  (cond ((hash-table-p object) (gethash key object))
        ((and (consp object) (keywordp (car object))) (plist-get object (intern (concat ":" key))))))

(defun macmd--lsp-apply-workspace-edit (apply edit &optional operation)
  "Around `lsp--apply-workspace-edit' (APPLY): file operations in order.
A MacMD server's EDIT whose documentChanges create, rename or delete files is
applied in order (OPERATION as lsp-mode has it).  lsp-mode 8 applies the text
edits first: the text of a note that Create note makes goes into a buffer whose
file is then created under it, and saving it asks whether to overwrite it."
  (let ((changes (append (macmd--json-get edit "documentChanges") nil))
        (workspace (or lsp--cur-workspace (macmd--lsp-workspace))))
    (if (not (and workspace
                  (eq (lsp--client-server-id (lsp--workspace-client workspace)) 'macmd)
                  (seq-some (lambda (change) (macmd--json-get change "kind")) changes)))
        (funcall apply edit operation)
      (dolist (change changes)
        (pcase (macmd--json-get change "kind")
          ("create"
           (let ((file (lsp--uri-to-path (macmd--json-get change "uri")))
                 (options (macmd--json-get change "options")))
             ;; An existing file is left as it is, unless it is to be overwritten.
             (when (or (not (file-exists-p file))
                       (macmd--true-p (macmd--json-get options "overwrite")))
               (make-directory (file-name-directory file) t)
               (write-region "" nil file nil 'silent)
               (when-let ((buffer (find-buffer-visiting file)))
                 (with-current-buffer buffer (set-visited-file-modtime))))
             (find-file-noselect file)))
          ((or "rename" "delete") (lsp--apply-text-document-edit change operation))
          (_
           (find-file-noselect
            (lsp--uri-to-path (macmd--json-get (macmd--json-get change "textDocument") "uri")))
           (lsp--apply-text-document-edit change operation)))))))

(defun macmd--lsp-eldoc-message (arguments)
  "The ARGUMENTS of `lsp--eldoc-message' with the diagnostics at point.
In the buffers of a MacMD server, flymake's diagnostics at point go before the
hover text."
  (let ((diagnostics (and (bound-and-true-p flymake-mode) (macmd--lsp-workspace)
                          (mapcar #'flymake-diagnostic-text (flymake-diagnostics (point))))))
    (if diagnostics
        (list (string-join (append diagnostics (delq nil (list (car arguments)))) "\n"))
      arguments)))

(defun macmd--lsp-workspace ()
  "The lsp-mode workspace of the MacMD server in the current buffer, or nil."
  (and (bound-and-true-p lsp-managed-mode)
       (fboundp 'lsp-workspaces)
       (seq-find (lambda (workspace)
                   (eq (lsp--client-server-id (lsp--workspace-client workspace)) 'macmd))
                 (lsp-workspaces))))

;;;; Talking to the server, through either client

(defun macmd--client ()
  "The client through which the current buffer talks to a MacMD server.
`eglot' or `lsp', else nil."
  (cond ((macmd--eglot-server) 'eglot)
        ((macmd--lsp-workspace) 'lsp)))

(defun macmd--plist (json)
  "JSON as eglot gives it.
Objects are plists with keyword keys, arrays vectors, false and null nil or
`:json-false'.  lsp-mode (built with `lsp-use-plists' nil) gives hash tables
with string keys, and merges arrays into lists."
  (cond ((hash-table-p json)
         (let ((plist '()))
           (maphash (lambda (key value)
                      (setq plist (cl-list* (intern (concat ":" key)) (macmd--plist value) plist)))
                    json)
           plist))
        ((vectorp json) (vconcat (mapcar #'macmd--plist json)))
        ((and (consp json) (keywordp (car json)))
         (cl-loop for (key value) on json by #'cddr nconc (list key (macmd--plist value))))
        ((consp json) (vconcat (mapcar #'macmd--plist json)))
        (t json)))

(defun macmd--true-p (value)
  "Whether the JSON VALUE is true."
  (and value (not (eq value :json-false))))

(defun macmd--capability (&rest path)
  "The server's capability at PATH, as a plist.
PATH is keywords, e.g. :experimental :macmd :pairs."
  (let ((capabilities
         (pcase (macmd--client)
           ('eglot (eglot--capabilities (macmd--eglot-server)))
           ('lsp (macmd--plist (lsp--workspace-server-capabilities (macmd--lsp-workspace)))))))
    (dolist (key path capabilities)
      (setq capabilities (and (consp capabilities) (plist-get capabilities key))))))

(defun macmd--flush ()
  "Sends the buffer's pending changes to the server.
eglot sends them after an idle time, lsp-mode at once."
  (when (and (eq (macmd--client) 'eglot) (fboundp 'eglot--signal-textDocument/didChange))
    (eglot--signal-textDocument/didChange)))

(defun macmd--request-async (method params success failure &optional timeout token)
  "Sends METHOD (a string) with PARAMS to the buffer's MacMD server, and returns.
Later calls SUCCESS with the result (a plist) or FAILURE with a message; after
TIMEOUT seconds (default 10) without an answer, FAILURE.  With lsp-mode, a
request of the same TOKEN still waiting is cancelled."
  (pcase (macmd--client)
    ('eglot
     (macmd--flush)
     (jsonrpc-async-request
      (macmd--eglot-server) (intern (concat ":" method)) params
      :success-fn success
      :error-fn (lambda (error) (funcall failure (plist-get error :message)))
      :timeout-fn (lambda () (funcall failure "the server did not answer in time"))
      :timeout (or timeout 10)))
    ('lsp
     (let* ((workspace (macmd--lsp-workspace))
            (lsp--cur-workspace workspace)
            (lsp--buffer-workspaces (list workspace))
            (answered nil))
       (lsp-request-async method params
                          (lambda (result)
                            (setq answered t)
                            (funcall success (macmd--plist result)))
                          :mode 'detached
                          :cancel-token token
                          :error-handler
                          (lambda (error)
                            (setq answered t)
                            (funcall failure (format "%s" (or (plist-get (macmd--plist error) :message)
                                                              error)))))
       (run-with-timer (or timeout 10) nil
                       (lambda ()
                         (unless answered
                           (setq answered t)
                           (funcall failure "the server did not answer in time"))))))
    (_ (user-error "MacMD: no MacMD language server in this buffer; run M-x eglot or M-x lsp"))))

(defun macmd--request (method params &optional timeout)
  "Sends METHOD (a string) with PARAMS to the buffer's MacMD server and waits.
Waits at most TIMEOUT seconds (default 10) for the result, returned as a plist
\(`macmd--plist').  Signals an error when the server fails, is late or missing.
The wait reads the server's messages as they come: the clients' own waits
\(`jsonrpc-request', `lsp-request') leave the ones that came with the answer
unread (eglot) or drop them (lsp-mode: a diagnostics report, the end of the
server's progress)."
  (let* ((state nil)
         (deadline (+ (float-time) (or timeout 10))))
    (macmd--request-async method params
                          (lambda (result) (setq state (list 'done result)))
                          (lambda (message) (setq state (list 'failed message)))
                          (or timeout 10) :macmd-request)
    (while (and (not state) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (pcase state
      (`(done ,result) result)
      (`(failed ,message) (error "MacMD: %s: %s" method message))
      (_ (when (and (eq (macmd--client) 'lsp) (fboundp 'lsp-cancel-request-by-token))
           (lsp-cancel-request-by-token :macmd-request))
         (error "MacMD: %s: the server did not answer in time" method)))))

(defun macmd--text-document ()
  "The TextDocumentIdentifier of the current buffer, as a plist."
  (list :uri (macmd--document-uri)))

(defun macmd--document-uri ()
  "The URI the buffer's client uses for its document."
  (cond ((and (eq (macmd--client) 'lsp) (fboundp 'lsp--buffer-uri)) (lsp--buffer-uri))
        ((fboundp 'eglot--TextDocumentIdentifier)
         (plist-get (eglot--TextDocumentIdentifier) :uri))
        ((fboundp 'eglot-path-to-uri) (eglot-path-to-uri (buffer-file-name)))
        (t (concat "file://" (expand-file-name (buffer-file-name))))))

(defun macmd--position (&optional pos)
  "POS (default point) as an LSP position plist, counted as the client negotiated."
  (pcase (macmd--client)
    ('eglot (eglot--pos-to-lsp-position pos))   ; UTF-16 code units
    ('lsp (macmd--plist (lsp--point-to-position (or pos (point)))))))   ; code points (utf-32)

(defun macmd--point (position)
  "The buffer position of the LSP POSITION plist."
  (pcase (macmd--client)
    ('eglot (eglot--lsp-position-to-point position))
    ('lsp (lsp--line-character-to-point (plist-get position :line)
                                        (plist-get position :character)))))

(defun macmd--position-params ()
  "TextDocumentPositionParams at point."
  (list :textDocument (macmd--text-document) :position (macmd--position)))

;;;; Applying a key's edits

(defconst macmd--cursor-before (intern ":macmd.cursorBefore")
  "The key of MacMD's TextEdit extension.
The edit is an insertion at the cursor that goes after it.")

(defun macmd--apply-typing-edits (edits)
  "Applies the TextEdit plists EDITS, made for the buffer as it is.
Point moves as VS Code moves it, which the server's edits are made for: an edit
that ends at or before point shifts it by what the edit added (text inserted at
point leaves point after it), unless the edit is marked `macmd.cursorBefore'
\(text inserted at point that goes after it); any other edit leaves point."
  (let* ((index 0)
         (items (mapcar (lambda (edit)
                          (let ((range (plist-get edit :range)))
                            (list (macmd--point (plist-get range :start))
                                  (macmd--point (plist-get range :end))
                                  (replace-regexp-in-string
                                   "\r\n" "\n" (or (plist-get edit :newText) "") t t)
                                  (macmd--true-p (plist-get edit macmd--cursor-before))
                                  (cl-incf index))))
                        (append edits nil)))
         ;; From the last to the first, so that each edit's positions are still those of the text
         ;; it was made for; of edits that start at the same place, the longer (then the later)
         ;; one goes first.
         (items (sort items (lambda (a b)
                              (cond ((/= (nth 0 a) (nth 0 b)) (> (nth 0 a) (nth 0 b)))
                                    ((/= (nth 1 a) (nth 1 b)) (> (nth 1 a) (nth 1 b)))
                                    (t (> (nth 4 a) (nth 4 b)))))))
         (pt (point)))
    (dolist (item items)
      (pcase-let ((`(,beg ,end ,text ,before) item))
        (goto-char beg)
        (delete-region beg end)
        (insert text)
        (cond ((and before (= beg end) (= beg pt)))
              ((<= end pt) (setq pt (+ pt (- (length text) (- end beg)))))
              ((< beg pt) (setq pt (min pt (point)))))))
    (goto-char pt)))

(defun macmd--on-type-edits (ch)
  "The server's edits after CH (a string) was typed at point.
A list; nil when there are none, `failed' when the server did not answer in
time."
  (condition-case nil
      (append (macmd--request "textDocument/onTypeFormatting"
                              (list :textDocument (macmd--text-document)
                                    :position (macmd--position)
                                    :ch ch
                                    :options (list :tabSize tab-width
                                                   :insertSpaces (if indent-tabs-mode :json-false t)))
                              macmd-typing-timeout)
              nil)
    (error 'failed)))

(defun macmd--on-type (ch)
  "Applies the server's edits after CH (a string) was typed at point."
  (let ((edits (macmd--on-type-edits ch)))
    (when (consp edits)
      (macmd--apply-typing-edits edits))))

(defmacro macmd--one-step (&rest body)
  "Runs BODY as one undo step."
  (declare (indent 0) (debug t))
  (let ((group (make-symbol "group")))
    `(let ((,group (prepare-change-group)))
       (activate-change-group ,group)
       (unwind-protect (progn ,@body)
         (accept-change-group ,group)
         (undo-amalgamate-change-group ,group)))))

;;;; The keys of `macmd-typing-mode'

(defconst macmd--closing
  ;; Written as strings: a pair's characters, the open first.
  (mapcar (lambda (pair) (cons (aref pair 0) (aref pair 1)))
          '("()" "[]" "{}" "``" "**" "__" "$$" "~~" "\"\"" "''"))
  "What a typed character closes, by the character typed last in an open (for DEL).")

(defconst macmd--closers (append ")]}`*_$~\"'" nil)
  "The characters that step over the same character after point.")

(defconst macmd--extenders (append "*_$~" nil)
  "The characters whose pair a second one extends (`**', `__', `$$', `~~').")

(defvar-local macmd--armed nil
  "The pair inserted last whose close the next character may take back.
A list (POINT TICK CLOSE WITHDRAW-ON), or nil.")

(defvar-local macmd--pending nil
  "`macmd--armed' as the current command found it, for `macmd--post-self-insert'.")

(defun macmd--active-p ()
  "Whether the keys of `macmd-typing-mode' do their work here now."
  (and macmd-typing-mode (not buffer-read-only) (not (minibufferp)) (macmd--client)))

(defun macmd--fallback (default)
  "The command the keys of this command run without `macmd-typing-mode'.
That is markdown-mode's, or DEFAULT."
  (let ((command (let ((macmd-typing-mode nil))
                   (key-binding (this-command-keys-vector) t))))
    (if (and (commandp command)
             (not (memq command '(macmd-newline macmd-type macmd-backspace
                                                execute-extended-command))))
        command
      default)))

(defun macmd--triggers ()
  "The characters after which the server formats (its moreTriggerCharacter)."
  (mapcar #'string-to-char
          (append (macmd--capability :documentOnTypeFormattingProvider :moreTriggerCharacter)
                  nil)))

(defun macmd--opens-run-p (before ch)
  "Whether BEFORE ends with a run of CH that opens.
It opens at the line start or after white space or punctuation, not after a
letter or digit (where it closes)."
  (let ((index (length before)))
    (when (and (> index 0) (eq (aref before (1- index)) ch))
      (while (and (> index 0) (eq (aref before (1- index)) ch))
        (setq index (1- index)))
      (or (= index 0)
          (string-match-p "[[:space:][:punct:]]" (string (aref before (1- index))))))))

(defun macmd--pair-for (ch before after pairs)
  "The pair of PAIRS that CH opens, typed between BEFORE and AFTER.
PAIRS is the `pairs' of `macmd/pairs'.  The result is (MISSING . PAIR), MISSING
the part of its close not already after point (`[|]' + `[' gives `]' of
`]]'); nil when no pair opens here."
  (let ((text (concat before (string ch))))
    (seq-some
     (lambda (pair)
       (let ((open (plist-get pair :open))
             (close (plist-get pair :close)))
         (when (and (stringp open) (stringp close) (> (length open) 0)
                    (string-suffix-p open text))
           (let ((present 0))
             (when (> (length open) 1)
               ;; The close of the shorter pair the first character already wrote.
               (cl-loop for n from (1- (length close)) downto 1
                        when (string-prefix-p (substring close (- (length close) n)) after)
                        do (setq present n) and return nil))
             (cons (substring close 0 (- (length close) present)) pair)))))
     (append pairs nil))))

(defun macmd-type (count)
  "Types this key's character COUNT times, with pairs and on-type formatting.
A closing character in front of the same one steps over it; an opening one
gets the close the server says it has here (`macmd/pairs'); a trigger character
\(` [ |) gets the server's edits."
  (interactive "p")
  (let ((ch last-command-event)
        (fallback (macmd--fallback #'self-insert-command)))
    (if (or (not (characterp ch)) (/= count 1) (use-region-p) (not (macmd--active-p)))
        (call-interactively fallback)
      (macmd--one-step
        (let* ((before (buffer-substring-no-properties (line-beginning-position) (point)))
               (after (buffer-substring-no-properties (point) (line-end-position)))
               (pairs (and macmd-pairs (macmd--capability :experimental :macmd :pairs))))
          (if (and pairs (memq ch macmd--closers) (eq (char-after) ch)
                   (not (and (memq ch macmd--extenders) (macmd--opens-run-p before ch))))
              (forward-char 1)
            (let* ((hints (and pairs (assq ch macmd--closing)
                               (condition-case nil
                                   (macmd--request "macmd/pairs" (macmd--position-params)
                                                   macmd-typing-timeout)
                                 (error nil))))
                   (paired (and hints (macmd--pair-for ch before after (plist-get hints :pairs)))))
              (call-interactively fallback)
              (when (and paired (> (length (car paired)) 0))
                (save-excursion (insert (car paired)))
                (let ((withdraw (plist-get (cdr paired) :withdrawOn)))
                  (when (and (stringp withdraw) (> (length withdraw) 0))
                    (setq macmd--armed (list (point) nil (car paired) withdraw)))))
              (when (memq ch (macmd--triggers))
                (macmd--on-type (string ch)))
              (when macmd--armed
                (setf (nth 1 macmd--armed) (buffer-chars-modified-tick))))))))))

(defun macmd--pre-command ()
  "Hands the armed pair to this command if point and the text are as it left them."
  (let ((armed macmd--armed))
    (setq macmd--armed nil
          macmd--pending (and armed (eql (point) (nth 0 armed))
                              (eql (buffer-chars-modified-tick) (nth 1 armed))
                              armed))))

(defun macmd--post-self-insert ()
  "Takes an armed pair's close back when the character typed withdraws it.
A character typed right after the pair's open that is in its `withdrawOn' takes
the close back: `$' `5' gives `$5', not `$5$'."
  (let ((armed macmd--pending))
    (setq macmd--pending nil)
    (when (and armed (characterp last-command-event)
               (= (1- (point)) (nth 0 armed))
               (seq-contains-p (nth 3 armed) last-command-event)
               (let ((close (nth 2 armed)))
                 (and (<= (+ (point) (length close)) (point-max))
                      (string= (buffer-substring-no-properties (point) (+ (point) (length close)))
                               close))))
      (delete-region (point) (+ (point) (length (nth 2 armed)))))))

(defun macmd-backspace (count)
  "DEL: between an empty pair, both characters go.
An empty pair is `(|)', or `[[|]]' a level at a time.  Elsewhere, what DEL does
without `macmd-typing-mode' (COUNT times)."
  (interactive "p")
  (let ((fallback (macmd--fallback #'delete-backward-char)))
    (if (and (= count 1) (not (use-region-p)) macmd-pairs (macmd--active-p)
             (char-before) (char-after)
             (eq (cdr (assq (char-before) macmd--closing)) (char-after)))
        (macmd--one-step (delete-region (1- (point)) (1+ (point))))
      (call-interactively fallback))))

(defun macmd-newline ()
  "RET: a line break, then the server's edits.
A list, a quote or a table continues (an empty item ends its list), an ordered
list is renumbered.  Where the server has nothing to do, or does not answer in
time, RET does what it does without `macmd-typing-mode' (markdown-mode's
`markdown-enter-key')."
  (interactive "*")
  (let ((fallback (macmd--fallback #'newline)))
    (if (or current-prefix-arg (use-region-p) (not (macmd--active-p)))
        (call-interactively fallback)
      ;; Enter in the middle of a line carries the rest, with the white space before it, which
      ;; does not belong in a continued item.
      (let ((carried (and (looking-at "[ \t]+[^ \t\n]")
                          (length (string-trim-right (match-string 0) "[^ \t]")))))
        (macmd--one-step
          (newline)   ; not interactively: no post-self-insert-hook, no electric indent
          (let ((edits (macmd--on-type-edits "\n")))
            (if (consp edits)
                (progn
                  (macmd--apply-typing-edits edits)
                  (when (and carried
                             (looking-at (format "[ \t]\\{%d\\}" carried))
                             (string-match-p "[^ \t]" (buffer-substring-no-properties
                                                       (line-beginning-position) (point))))
                    (delete-char carried)))
              ;; Nothing to continue: markdown-mode's RET instead of the plain line break.
              (delete-char -1)
              (setq this-command fallback)
              (call-interactively fallback))))))))

;; With `delete-selection-mode', typing over a region replaces it, as plain typing does.
(put 'macmd-type 'delete-selection t)
(put 'macmd-newline 'delete-selection t)
(put 'macmd-backspace 'delete-selection 'supersede)

(defvar macmd-typing-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'macmd-newline)
    (define-key map (kbd "DEL") #'macmd-backspace)
    (dolist (ch (append "([{`*_$~\"')]}|" nil))
      (define-key map (vector ch) #'macmd-type))
    ;; markdown-mode has `ispell-complete-word' on C-M-i.
    (define-key map (kbd "C-M-i") #'completion-at-point)
    map)
  "The keys of `macmd-typing-mode'.")

(defvar-local macmd--saved nil
  "What `macmd-typing-mode' changed in the buffer, to put back.
A list of (VARIABLE LOCAL VALUE).")

(defun macmd--set-local (variable value)
  "Sets VARIABLE buffer-locally to VALUE, remembering its value to put back."
  (unless (assq variable macmd--saved)
    (push (list variable (local-variable-p variable) (and (boundp variable) (symbol-value variable)))
          macmd--saved))
  (set (make-local-variable variable) value))

(defun macmd--restore ()
  "Puts back what `macmd--set-local' changed."
  (pcase-dolist (`(,variable ,local ,value) macmd--saved)
    (if local (set (make-local-variable variable) value) (kill-local-variable variable)))
  (setq macmd--saved nil))

;;;###autoload
(define-minor-mode macmd-typing-mode
  "Typing help from the MacMD server.
RET continues lists, quotes and tables, pairs close where the server says they
do, fences, wiki-links and tables get the server's edits, and C-M-i completes
links, headings, tags and snippets.  On by itself in the Markdown buffers a
MacMD server manages (eglot or lsp-mode), unless `macmd-typing' is nil.

\\{macmd-typing-mode-map}"
  :lighter nil
  :keymap macmd-typing-mode-map
  (cond
   (macmd-typing-mode
    (add-hook 'pre-command-hook #'macmd--pre-command nil t)
    (add-hook 'post-self-insert-hook #'macmd--post-self-insert nil t)
    (add-hook 'completion-at-point-functions #'macmd-completion-at-point -90 t)
    ;; The clients' own on-type formatting is not run on RET (markdown-mode's RET inserts its
    ;; line break non-interactively) and leaves point before the text it inserts at point.
    (macmd--set-local 'eglot-ignored-server-capabilities
                      (cons :documentOnTypeFormattingProvider
                            (bound-and-true-p eglot-ignored-server-capabilities)))
    (macmd--set-local 'lsp-enable-on-type-formatting nil)
    (when (and (bound-and-true-p lsp-managed-mode) (fboundp 'lsp--update-on-type-formatting-hook))
      (lsp--update-on-type-formatting-hook :cleanup))
    ;; gfm-mode's electric backquote asks for a language on the third backquote, which the
    ;; server's closing fence answers; electric pairs would pair what the server does not.
    (macmd--set-local 'markdown-gfm-use-electric-backquote nil)
    (when (and macmd-pairs (bound-and-true-p electric-pair-mode))
      (macmd--set-local 'electric-pair-mode nil)))
   (t
    (remove-hook 'pre-command-hook #'macmd--pre-command t)
    (remove-hook 'post-self-insert-hook #'macmd--post-self-insert t)
    (remove-hook 'completion-at-point-functions #'macmd-completion-at-point t)
    (macmd--restore)
    (when (and (bound-and-true-p lsp-managed-mode) (fboundp 'lsp--update-on-type-formatting-hook))
      (lsp--update-on-type-formatting-hook)))))

;;;; Completion

(defun macmd--completion-first ()
  "Puts `macmd-completion-at-point' first in the buffer's completion functions."
  (when macmd-typing-mode
    (add-hook 'completion-at-point-functions #'macmd-completion-at-point -90 t)))

(defun macmd--snippet-text (snippet)
  "The text of the LSP SNIPPET.
Placeholders are their text; tab stops and variables go."
  (let ((text snippet) (previous nil))
    ;; Innermost placeholders first, until nothing changes.
    (while (not (equal text previous))
      (setq previous text
            text (replace-regexp-in-string "\\${[0-9]+:\\([^${}]*\\)}" "\\1" text t)))
    (setq text (replace-regexp-in-string "\\${[0-9]+|\\([^,|}]*\\)[^}]*}" "\\1" text t))
    (setq text (replace-regexp-in-string "\\$\\(?:[0-9]+\\|{[0-9]+}\\)" "" text t))
    (replace-regexp-in-string "\\\\\\([$}\\\\]\\)" "\\1" text t)))

(defun macmd--insert-item-text (item text)
  "Inserts TEXT of the completion ITEM at point.
A snippet is expanded by yasnippet when it is on, else inserted as text."
  (if (eql (plist-get item :insertTextFormat) 2)
      (if (and (fboundp 'yas-expand-snippet) (bound-and-true-p yas-minor-mode))
          (yas-expand-snippet text)
        (insert (macmd--snippet-text text)))
    (insert text)))

(defun macmd--completion-table (candidates)
  "A completion table of CANDIDATES that ignores case and keeps their order.
The first of several is the server's first, which `completion-cycle-threshold'
lets C-M-i insert at once."
  (let ((table (completion-table-case-fold candidates)))
    (lambda (string predicate action)
      (if (eq action 'metadata)
          '(metadata (category . macmd)
                     (display-sort-function . identity)
                     (cycle-sort-function . identity))
        (complete-with-action action table string predicate)))))

(defun macmd-completion-at-point ()
  "Completion of links, headings, tags and snippets from the MacMD server.
For `completion-at-point-functions'.  The completed text starts where the
items' textEdit starts (so `[[Seed Cat' completes the whole `Seed Cat', not the
word `Cat'), candidates match their filterText ignoring case, and the chosen
item's textEdit is applied as the server made it."
  (when (macmd--client)
    (let* ((pt (point))
           (result (condition-case nil
                       (macmd--request "textDocument/completion"
                                       (append (macmd--position-params) '(:context (:triggerKind 1)))
                                       2)
                     (error nil)))
           ;; In the server's order (sortText, else label).
           (items (sort (append (if (vectorp result) result (plist-get result :items)) nil)
                        (lambda (a b)
                          (string< (or (plist-get a :sortText) (plist-get a :label) "")
                                   (or (plist-get b :sortText) (plist-get b :label) "")))))
           (edit (seq-some (lambda (item) (plist-get item :textEdit)) items))
           (range (and edit (or (plist-get edit :range) (plist-get edit :insert))))
           (start (if range
                      (min pt (macmd--point (plist-get range :start)))
                    (or (car (bounds-of-thing-at-point 'symbol)) pt)))
           (by-text (make-hash-table :test #'equal))
           (candidates
            (delq nil (mapcar (lambda (item)
                                (let ((text (or (plist-get item :filterText) (plist-get item :label))))
                                  (unless (gethash text by-text)
                                    (puthash text item by-text)
                                    text)))
                              items))))
      (when items
        (list start pt (macmd--completion-table candidates)
              :annotation-function
              (lambda (candidate)
                (let* ((item (gethash candidate by-text))
                       (label (plist-get item :label))
                       (detail (plist-get item :detail)))
                  (concat (if (and label (not (string= label candidate))) (concat " " label) "")
                          (if (stringp detail) (concat "  " detail) ""))))
              :company-kind (lambda (_) 'text)
              :exit-function
              (lambda (candidate status)
                (when (memq status '(finished exact sole))
                  (let* ((item (or (gethash candidate by-text)
                                   (seq-some (lambda (text)
                                               (and (string= (downcase text) (downcase candidate))
                                                    (gethash text by-text)))
                                             candidates)))
                         (edit (plist-get item :textEdit))
                         (range (and edit (or (plist-get edit :range) (plist-get edit :replace))))
                         (additional (plist-get item :additionalTextEdits)))
                    (when item
                      (if range
                          ;; The server's buffer had CANDIDATE's start..end where START..PT was:
                          ;; the range ends (END - PT) characters after the inserted text.
                          (let ((after (- (macmd--point (plist-get range :end)) pt)))
                            (delete-region start (min (point-max) (+ (point) (max 0 after))))
                            (goto-char start)
                            (macmd--insert-item-text item (plist-get edit :newText)))
                        (delete-region start (point))
                        (goto-char start)
                        (macmd--insert-item-text
                         item (or (plist-get item :insertText) (plist-get item :label))))
                      (when additional
                        (save-excursion (macmd--apply-typing-edits additional))))))))))))

;;;; The buffers a MacMD server manages

(defvar-local macmd--face-cookies nil
  "The face remappings of this buffer (flymake's faces underlined in a terminal).")

(defun macmd--managed ()
  "Sets up or undoes MacMD's help when a client starts or stops managing a buffer.
In a Markdown buffer of a MacMD server, turns on `macmd-typing-mode' (see
`macmd-typing'), underlines flymake's diagnostics where the wavy underline
cannot be drawn, and lets eldoc show the diagnostic at point beside the hover
text."
  (if (and (derived-mode-p 'markdown-mode) (macmd--client))
      (progn
        (when (and macmd-typing (not macmd-typing-mode))
          (macmd-typing-mode 1))
        (macmd--underline-diagnostics)
        (macmd--eldoc-diagnostics)
        (macmd--flymake-backends))
    (when macmd-typing-mode (macmd-typing-mode -1))
    (mapc #'face-remap-remove-relative macmd--face-cookies)
    (setq macmd--face-cookies nil)))

(defun macmd--underline-diagnostics ()
  "Underlines flymake's faces in this buffer where Emacs cannot draw a wave.
In a terminal, errors would otherwise show as colored text only."
  (unless (or macmd--face-cookies
              (display-supports-face-attributes-p '(:underline (:style wave))))
    (dolist (face '(flymake-error flymake-warning flymake-note))
      (push (face-remap-add-relative face '(:underline t)) macmd--face-cookies))))

(defun macmd--flymake-backends ()
  "Leaves flymake's legacy backend out of an lsp-mode buffer.
It finds nothing to run for Markdown and warns that it disables itself; eglot
leaves out every other backend."
  (when (and (eq (macmd--client) 'lsp) (boundp 'flymake-diagnostic-functions))
    (let ((functions (if (local-variable-p 'flymake-diagnostic-functions)
                         flymake-diagnostic-functions
                       '(t))))
      (when (memq t functions)
        (setq-local flymake-diagnostic-functions
                    (append (remq t functions)
                            (remq t (remq 'flymake-proc-legacy-flymake
                                          (default-value 'flymake-diagnostic-functions)))))))))

(defun macmd--eldoc-diagnostics ()
  "Lets eldoc show flymake's diagnostics at point, then the hover text.
eglot's own strategy shows only the first of them that has something to say."
  (when (and (boundp 'eldoc-documentation-strategy) (fboundp 'flymake-eldoc-function)
             (eq (macmd--client) 'eglot))
    (setq-local eldoc-documentation-functions
                (cons #'flymake-eldoc-function
                      (remq #'flymake-eldoc-function eldoc-documentation-functions)))
    (setq-local eldoc-documentation-strategy #'eldoc-documentation-compose)))

;;;; Preview

(defvar macmd-preview-written-functions nil
  "Called with the page's file in the note's buffer after `macmd-preview' wrote it.")

(defvar-local macmd--preview-file nil
  "The HTML file of this buffer's preview, once `macmd-preview' has run.")

(defvar-local macmd--preview-theme nil
  "The theme `macmd-preview' was last asked for in this buffer.")

(defvar-local macmd--preview-resources nil
  "The files the page of this buffer's preview shows (pictures, embedded notes), as paths.
Saving one of them renders the page again.")

(defun macmd--server ()
  "The client of the current buffer's MacMD server.
Else a user error saying how to start one."
  (or (macmd--client)
      (user-error "MacMD: no MacMD language server in this buffer; run M-x eglot or M-x lsp")))

(defun macmd--with-refresh (html)
  "HTML that reloads itself after `macmd-preview-refresh-seconds', if positive."
  (if (and (integerp macmd-preview-refresh-seconds) (> macmd-preview-refresh-seconds 0))
      (let ((meta (format "<meta http-equiv=\"refresh\" content=\"%d\">"
                          macmd-preview-refresh-seconds)))
        (if (string-match "<head>" html)
            (replace-match (concat "<head>" meta) t t html)
          (concat meta html)))
    html))

(defun macmd--preview-folder ()
  "The folder of the preview pages (see `macmd-preview-folder')."
  (file-name-as-directory
   (or macmd-preview-folder
       (let ((cache (getenv "XDG_CACHE_HOME")))
         (if (and cache (not (string-empty-p cache)))
             (expand-file-name "macmd/preview/" cache)
           (locate-user-emacs-file "macmd-preview/"))))))

(defun macmd--preview-page ()
  "The page file of this buffer's note: its name and a hash of its path."
  (let ((file (buffer-file-name)))
    (expand-file-name
     (if file
         (format "%s-%s.html"
                 (replace-regexp-in-string "[^[:alnum:]._-]" "_" (file-name-base file))
                 (substring (secure-hash 'sha256 (expand-file-name file)) 0 12))
       (format "buffer-%s.html" (replace-regexp-in-string "[^[:alnum:]._-]" "_" (buffer-name))))
     (macmd--preview-folder))))

(defun macmd--page-url (file headings line)
  "The `file:' URL of the page FILE at a heading.
That is the id of the last of HEADINGS (the result's `headings') at or above
the 0-based LINE."
  (let ((id nil))
    (seq-doseq (heading headings)
      (when (<= (plist-get heading :line) line)
        (setq id (plist-get heading :id))))
    (concat "file://" (url-hexify-string (expand-file-name file) (cons ?/ url-unreserved-chars))
            (if (and id (not (string-empty-p id))) (concat "#" (url-hexify-string id)) ""))))

(defun macmd--render (open)
  "Asks the server for this buffer's preview and returns at once.
The answer is written to the page file, which is shown in the browser when
OPEN, at the heading above point."
  (macmd--server)
  (let ((options (append '(:fullPage t :resources "absolute")
                         (when-let ((theme (or macmd--preview-theme macmd-preview-theme)))
                           (list :theme theme))))
        (file macmd--preview-file)
        (buffer (current-buffer))
        (line (1- (line-number-at-pos))))
    ;; Asynchronous, so Emacs is not blocked while the server renders a long note; the answer is
    ;; written to the page of the buffer that asked, whichever buffer is current by then.
    (macmd--request-async
     "macmd/preview" (list :textDocument (macmd--text-document) :options options)
     (lambda (result) (macmd--write-page buffer file result open line))
     (lambda (error) (message "MacMD preview failed: %s" error))
     60)))

(defun macmd--write-page (buffer file result open line)
  "Writes the page FILE of BUFFER's preview from the macmd/preview RESULT.
Shows it in the browser when OPEN, at the heading above the 0-based LINE."
  (let ((html (plist-get result :html)))
    (if (not (stringp html))
        (message "MacMD preview: macmd/preview gave no HTML")
      (make-directory (file-name-directory file) t)
      (let ((coding-system-for-write 'utf-8))
        (write-region (macmd--with-refresh html) nil file nil 'silent))
      (when open
        (browse-url (macmd--page-url file (plist-get result :headings) line)))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (setq macmd--preview-resources
                (mapcar (lambda (uri) (file-truename (macmd--uri-to-file uri)))
                        (plist-get result :resources)))
          (run-hook-with-args 'macmd-preview-written-functions file)))
      (message "MacMD preview: %s" (or (plist-get result :title) file)))))

;;;; The preview server

;; Invariants: it listens on 127.0.0.1 only, on a port the system picks, and answers only URLs
;; under a random token, so another user of the machine cannot read the notebook; it serves
;; only what is inside a notebook's root (a path with `..', or whose real path leaves the root,
;; is refused), and only GET and HEAD; a page is asked of the MacMD server through a buffer of
;; its notebook, asynchronously, and a request the server leaves unanswered for 10 s is
;; answered 504.  URLs: /TOKEN/ID/n/PATH (a note's page, or a file of the notebook) and
;; /TOKEN/ID/t/TAG (a tag's page), ID standing for a notebook.

(defvar macmd--http nil "The preview server's process, once started.")
(defvar macmd--http-token nil "The random part of every URL the preview server answers.")
(defvar macmd--http-theme nil "The theme `macmd-preview' was last asked for, for every page served.")
(defvar macmd--http-notebooks nil
  "The notebooks the preview server serves: a list of (ID ROOT BUFFER), BUFFER a
buffer of the notebook that talks to its MacMD server.")

(defconst macmd--http-types
  '(("png" . "image/png") ("jpg" . "image/jpeg") ("jpeg" . "image/jpeg") ("gif" . "image/gif")
    ("svg" . "image/svg+xml") ("webp" . "image/webp") ("avif" . "image/avif") ("bmp" . "image/bmp")
    ("pdf" . "application/pdf") ("mp3" . "audio/mpeg") ("m4a" . "audio/mp4") ("ogg" . "audio/ogg")
    ("wav" . "audio/wav") ("mp4" . "video/mp4") ("webm" . "video/webm") ("mov" . "video/quicktime")
    ("txt" . "text/plain; charset=utf-8") ("css" . "text/css; charset=utf-8"))
  "Content types of the files the preview server sends, by extension.")

(defun macmd--http-port ()
  "The preview server's port; starts it the first time."
  (unless (process-live-p macmd--http)
    (setq macmd--http-token
          (substring (secure-hash 'sha256 (format "%s %s %s %s" (random t) (float-time) (emacs-pid)
                                                  (with-temp-buffer
                                                    (set-buffer-multibyte nil)
                                                    (ignore-errors (insert-file-contents-literally "/dev/urandom" nil 0 32))
                                                    (buffer-string))))
                     0 32))
    (setq macmd--http
          (make-network-process :name "macmd-preview" :server t :host "127.0.0.1" :service t
                                :family 'ipv4 :coding 'binary :noquery t
                                :filter #'macmd--http-filter)))
  (process-contact macmd--http :service))

(defun macmd--http-notebook (root buffer)
  "The id of the notebook at ROOT for the preview server, BUFFER one of its notes."
  (let ((entry (seq-find (lambda (entry) (equal (nth 1 entry) root)) macmd--http-notebooks)))
    (if entry
        (progn (setf (nth 2 entry) buffer) (car entry))
      (let ((id (1+ (length macmd--http-notebooks))))
        (push (list id root buffer) macmd--http-notebooks)
        id))))

(defun macmd--http-base (id kind)
  "The base URL of notebook ID's notes and files (KIND n) or tags (KIND t)."
  (format "http://127.0.0.1:%d/%s/%d/%s/" (macmd--http-port) macmd--http-token id kind))

(defun macmd--http-respond (process status type body &optional head-only)
  "Answers the connection PROCESS: STATUS, content TYPE and BODY (unibyte)."
  (when (process-live-p process)
    (process-send-string
     process
     (concat (format "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
                     status (pcase status (200 "OK") (400 "Bad Request") (403 "Forbidden") (404 "Not Found")
                                   (405 "Method Not Allowed") (502 "Bad Gateway") (_ "Gateway Timeout"))
                     type (length body))
             "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
             (if head-only "" body)))
    (process-send-eof process)))

(defun macmd--http-error (process status message &optional head-only)
  "Answers PROCESS with STATUS and a page saying MESSAGE."
  (macmd--http-respond process status "text/html; charset=utf-8"
                       (encode-coding-string
                        (format "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%d</title></head><body><p>%s</p></body></html>"
                                status (url-insert-entities-in-string message))
                        'utf-8)
                       head-only))

(defun macmd--http-filter (process data)
  "Reads a request from the connection PROCESS; answers it once whole."
  (let ((request (concat (or (process-get process :request) "") data)))
    (process-put process :request request)
    (cond
     ((> (length request) 65536) (macmd--http-error process 400 "Request too large"))
     ((string-match "\r\n\r\n" request)
      (if (string-match "\\`\\([A-Z]+\\) \\([^ ]+\\) HTTP/1\\.[01]\r\n" request)
          (let ((method (match-string 1 request))
                (target (match-string 2 request)))
            (condition-case err
                (macmd--http-handle process method target)
              (error (macmd--http-error process 502 (format "MacMD: %s" (error-message-string err))))))
        (macmd--http-error process 400 "Bad request"))))))

(defun macmd--http-handle (process method target)
  "Answers METHOD TARGET on the connection PROCESS."
  (let ((head-only (equal method "HEAD"))
        (path (replace-regexp-in-string "[?#].*\\'" "" target)))
    (cond
     ((not (member method '("GET" "HEAD"))) (macmd--http-error process 405 "Only GET"))
     ((not (string-match "\\`/\\([[:alnum:]]+\\)/\\([0-9]+\\)/\\([nt]\\)/\\(.*\\)\\'" path))
      (macmd--http-error process 404 "Not found" head-only))
     ((not (equal (match-string 1 path) macmd--http-token))
      (macmd--http-error process 404 "Not found" head-only))
     (t
      (let* ((id (string-to-number (match-string 2 path)))
             (kind (match-string 3 path))
             (rest (decode-coding-string (url-unhex-string (match-string 4 path)) 'utf-8))
             (entry (assq id macmd--http-notebooks))
             (root (nth 1 entry))
             (buffer (nth 2 entry)))
        (if (not (and entry (buffer-live-p buffer) (with-current-buffer buffer (macmd--client))))
            (macmd--http-error process 404 "This notebook is closed: run M-x macmd-preview again" head-only)
          (if (equal kind "t")
              (macmd--http-page process buffer (list :textDocument (with-current-buffer buffer (macmd--text-document))
                                                     :tag rest :options (macmd--http-options id))
                                head-only)
            (macmd--http-file process id root buffer rest head-only))))))))

(defun macmd--http-options (id)
  "The options of the pages of notebook ID."
  (append (list :fullPage t :baseUri (macmd--http-base id "n") :tagPages (macmd--http-base id "t"))
          (when-let ((theme (or macmd--http-theme macmd-preview-theme))) (list :theme theme))))

(defun macmd--http-file (process id root buffer relative head-only)
  "Answers PROCESS with the note or file RELATIVE of notebook ID (at ROOT)."
  (let* ((file (expand-file-name relative root))
         (real (file-truename file))
         (root (file-name-as-directory (file-truename root))))
    (cond
     ((or (string-empty-p relative) (string-prefix-p "/" relative) (string-match-p "\0" relative)
          (member ".." (split-string relative "/")))
      (macmd--http-error process 403 "Outside the notebook" head-only))
     ((not (and (string-prefix-p root real) (file-regular-p real)))
      (macmd--http-error process 404 (concat "No such file in the notebook: " relative) head-only))
     ((member (downcase (or (file-name-extension real) "")) '("md" "markdown"))
      ;; The buffer when the note is open (its unsaved edits), else the file.
      (let ((visiting (find-buffer-visiting file)))
        (macmd--http-page process buffer
                          (list :textDocument (if (and visiting (with-current-buffer visiting (macmd--client)))
                                                  (with-current-buffer visiting (macmd--text-document))
                                                (list :uri (concat "file://" (url-hexify-string file (cons ?/ url-unreserved-chars)))))
                                :options (macmd--http-options id))
                          head-only)))
     (t
      (macmd--http-respond process 200
                           (or (cdr (assoc (downcase (or (file-name-extension real) "")) macmd--http-types))
                               "application/octet-stream")
                           (with-temp-buffer
                             (set-buffer-multibyte nil)
                             (insert-file-contents-literally real)
                             (buffer-string))
                           head-only)))))

(defun macmd--http-page (process buffer params head-only)
  "Answers PROCESS with the page the server renders for PARAMS, through BUFFER."
  (with-current-buffer buffer
    (macmd--request-async
     "macmd/preview" params
     (lambda (result)
       (let ((html (plist-get result :html)))
         (if (stringp html)
             (macmd--http-respond process 200 "text/html; charset=utf-8"
                                  (encode-coding-string (macmd--with-refresh html) 'utf-8) head-only)
           (macmd--http-error process 502 "MacMD gave no page" head-only))))
     (lambda (message) (macmd--http-error process (if (string-match-p "time" message) 504 502)
                                          (format "MacMD: %s" message) head-only))
     10)))

(defun macmd--root ()
  "The root of the current buffer's notebook.
The nearest folder with a root marker, else the note's folder (as the server
guesses it)."
  (file-name-as-directory
   (expand-file-name (or (cdr (macmd-project-find default-directory)) default-directory))))

(defun macmd--serve-preview ()
  "Opens this note's page from the preview server, at the heading above point."
  (let* ((file (buffer-file-name))
         (root (macmd--root))
         (id (macmd--http-notebook root (current-buffer)))
         (relative (and file (file-relative-name (file-truename file) (file-truename root))))
         (line (1- (line-number-at-pos))))
    (unless (and relative (not (string-prefix-p "../" relative)))
      (user-error "MacMD preview: save the note in its notebook first"))
    (let ((url (concat (macmd--http-base id "n") (url-hexify-string relative (cons ?/ url-unreserved-chars)))))
      (macmd--request-async
       "macmd/preview" (list :textDocument (macmd--text-document) :options '(:sourceLines :json-false))
       (lambda (result)
         (let ((id nil))
           (seq-doseq (heading (plist-get result :headings))
             (when (<= (plist-get heading :line) line) (setq id (plist-get heading :id))))
           (browse-url (if (and id (not (string-empty-p id))) (concat url "#" (url-hexify-string id)) url))))
       (lambda (_) (browse-url url))
       60))))

(defun macmd--after-save-resource ()
  "Re-renders the previews whose pages show the file just saved (an embedded note).
After the save's other hooks, so the server has the saved text first."
  (when buffer-file-name
    (let ((saved (file-truename buffer-file-name)))
      (dolist (buffer (buffer-list))
        (when (and (not (eq buffer (current-buffer)))
                   (buffer-local-value 'macmd--preview-file buffer)
                   (member saved (buffer-local-value 'macmd--preview-resources buffer)))
          (run-at-time 0 nil
                       (lambda ()
                         (when (buffer-live-p buffer)
                           (with-current-buffer buffer
                             (macmd--after-save))))))))))

(defun macmd--after-save ()
  "Re-renders the preview of this buffer after a save."
  (when (and macmd--preview-file (macmd--client))
    (condition-case err
        (macmd--render nil)
      (error (message "MacMD preview failed: %s" (error-message-string err))))))

(defun macmd--uri-to-file (uri)
  "The file name of the file URI (a string)."
  (decode-coding-string (url-unhex-string (if (string-prefix-p "file://" uri) (substring uri 7) uri)) 'utf-8))

(defun macmd--mention-column (line character)
  "The column in LINE (a string) of the LSP CHARACTER offset.
eglot counts UTF-16 code units, lsp-mode code points."
  (if (eq (macmd--client) 'lsp)
      character
    (let ((column 0) (units 0))
      (while (and (< column (length line)) (< units character))
        (setq units (+ units (if (> (aref line column) #xFFFF) 2 1))
              column (1+ column)))
      column)))

;;;###autoload
(defun macmd-unlinked-mentions ()
  "List the places in other notes that name this note without a link, with xref.
Each is a mention of the note's title, an alias or its file name
\(`macmd/unlinkedMentions'); a code action on one links it."
  (interactive)
  (macmd--server)
  (unless (macmd--capability :experimental :macmd :unlinkedMentions)
    (user-error "MacMD: this server does not list unlinked mentions"))
  (let* ((mentions (macmd--request "macmd/unlinkedMentions" (list :textDocument (macmd--text-document))))
         (items
          (mapcar (lambda (mention)
                    (let* ((start (plist-get (plist-get mention :range) :start))
                           (line (or (plist-get mention :text) ""))
                           (file (macmd--uri-to-file (plist-get mention :uri))))
                      (xref-make line (xref-make-file-location
                                       file (1+ (plist-get start :line))
                                       (macmd--mention-column line (plist-get start :character))))))
                  mentions)))
    (if (null items)
        (message "MacMD: no unlinked mentions of this note")
      (xref-show-xrefs (lambda () items) nil))))

(defun macmd--file-line (file line)
  "The text of the 1-based LINE of FILE, from its buffer when one visits it."
  (let ((buffer (find-buffer-visiting file)))
    (with-temp-buffer
      (if buffer
          (insert-buffer-substring buffer)
        (ignore-errors (insert-file-contents file)))
      (goto-char (point-min))
      (forward-line (1- line))
      (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))

;;;###autoload
(defun macmd-search (query)
  "Search the text of every notebook for QUERY, the notes found listed with xref.
Best first (`macmd/search'), each at its best match with the excerpt around it.
QUERY takes words (all required), \"phrases\", tag:name, path:folder and
title:word; case and accents do not matter."
  (interactive (list (read-string "MacMD search: ")))
  (macmd--server)
  (unless (macmd--capability :experimental :macmd :search)
    (user-error "MacMD: this server does not search"))
  (when (string-empty-p (string-trim query))
    (user-error "MacMD: search needs a query"))
  (let* ((hits (macmd--request "macmd/search" (list :query query :limit 100)))
         (items
          (mapcar (lambda (hit)
                    (let* ((start (plist-get (plist-get hit :range) :start))
                           (file (macmd--uri-to-file (plist-get hit :uri)))
                           (line (1+ (plist-get start :line))))
                      (xref-make (or (plist-get hit :excerpt) "")
                                 (xref-make-file-location
                                  file line (macmd--mention-column (macmd--file-line file line) (plist-get start :character))))))
                  hits)))
    (if (null items)
        (message "MacMD: no note matches %s" query)
      (xref-show-xrefs (lambda () items) nil))))

;;;###autoload
(defun macmd-preview (&optional theme)
  "Preview this note in the browser, rendered by MacMD; re-rendered on each save.
Saving a note it embeds renders it again too.
With a prefix argument, ask for the THEME."
  (interactive
   (list (when current-prefix-arg
           (completing-read "MacMD theme: " macmd-preview-themes nil t))))
  (macmd--server)
  (when (and theme (not (string-empty-p theme)))
    (setq macmd--preview-theme theme))
  (if macmd-preview-server
      (progn
        (when macmd--preview-theme (setq macmd--http-theme macmd--preview-theme))
        (macmd--serve-preview))
    (unless macmd--preview-file
      (setq macmd--preview-file (macmd--preview-page))
      (add-hook 'after-save-hook #'macmd--after-save nil t)
      (add-hook 'after-save-hook #'macmd--after-save-resource))
    (macmd--render t)))

(provide 'macmd)

;;; macmd.el ends here

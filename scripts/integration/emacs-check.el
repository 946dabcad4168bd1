;;; Loaded by scripts/integration/emacs.mjs in `emacs --batch` after docs/editors/emacs-eglot.el:
;;; opens $LITMUS_FILE, lets eglot start the LITMUS server, waits for its diagnostics, asks for code
;;; actions at $LITMUS_ACTION_LINE:$LITMUS_ACTION_COL, and writes what Emacs has to
;;; $LITMUS_CHECK_OUT as JSON. Works on Emacs 28 (elpa-eglot) and newer.
(require 'eglot)
(require 'json)
(require 'flymake)

(defun litmus-check--wait (done seconds)
  "Process output until DONE returns non-nil or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall done)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall done)))

(let* ((file (getenv "LITMUS_FILE"))
       (out (getenv "LITMUS_CHECK_OUT"))
       (expect (string-to-number (or (getenv "LITMUS_EXPECT") "0")))
       (line (string-to-number (or (getenv "LITMUS_ACTION_LINE") "0")))
       (col (string-to-number (or (getenv "LITMUS_ACTION_COL") "0")))
       (eglot-sync-connect t)
       actions)
  (find-file file)
  ;; eglot-ensure connects from post-command-hook: run it as the command loop would.
  (run-hooks 'post-command-hook)
  (litmus-check--wait (lambda () (eglot-current-server)) 30)
  ;; Flymake starts its checks from the command loop and redisplay, neither of which runs in batch:
  ;; start them as an idle interactive Emacs would, until the server's diagnostics are reported.
  (litmus-check--wait (lambda ()
                        (when (and (bound-and-true-p flymake-mode) (not (flymake-running-backends)))
                          (flymake-start nil t))
                        (>= (length (flymake-diagnostics)) expect))
                      30)
  ;; A later publish may still change the list.
  (litmus-check--wait (lambda () nil) 1)
  (let ((server (eglot-current-server)))
    (when (and server (> line 0))
      (let ((result (jsonrpc-request
                     server :textDocument/codeAction
                     (list :textDocument (list :uri (eglot--path-to-uri buffer-file-name))
                           :range (list :start (list :line (1- line) :character (1- col))
                                        :end (list :line (1- line) :character (1- col)))
                           :context (list :diagnostics [])))))
        (setq actions (mapcar (lambda (a) (plist-get a :title)) result))))
    ;; Read in the file's buffer (with-temp-file switches to another).
    (let ((json (json-encode
                 (list (cons 'attached (if server t :json-false))
                       (cons 'root (if server (expand-file-name (project-root (eglot--project server))) :json-null))
                       (cons 'version emacs-version)
                       (cons 'actions (vconcat actions))
                       (cons 'diagnostics
                             (vconcat
                              (mapcar (lambda (d)
                                        (let ((beg (flymake-diagnostic-beg d)))
                                          (list (cons 'line (line-number-at-pos beg))
                                                (cons 'column (1+ (- beg (save-excursion (goto-char beg) (line-beginning-position)))))
                                                (cons 'text (flymake-diagnostic-text d)))))
                                      (flymake-diagnostics))))))))
      (with-temp-file out (insert json)))))
(kill-emacs 0)

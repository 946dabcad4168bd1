;;; LITMUS Lint in Emacs 28 or newer with eglot (init.el). The server: litmus-language-server (README: Install)
;; Eglot is built into Emacs 29; on Emacs 28 install it (Debian: apt install elpa-eglot; or M-x package-install).
(require 'js)
(require 'project)

;; LITMUS files get a mode of their own (JSON with comments), so other JSON keeps its server.
(defalias 'litmus-json-parent-mode (if (fboundp 'js-json-mode) #'js-json-mode #'js-mode))
(define-derived-mode litmus-json-mode litmus-json-parent-mode "LITMUS"
  "JSON with comments, for LITMUS suite files.")

(add-to-list 'auto-mode-alist
             '("\\(?:\\.litmus\\.jsonc?\\|\\.litmus\\.jsonl\\|\\.tools\\.jsonc?\\|\\.env\\.jsonc?\\|\\.scores\\.json\\|/litmus\\.config\\.json\\|/litmus\\.harness\\.json\\)\\'"
               . litmus-json-mode))

;; The project is the suite, as the CLI finds it: the outermost folder with a litmus.config.json up
;; to the repository root (the nearest folder with a .git), else that root; a nested config is part
;; of the suite above it. Without it, a suite outside version control would be only the file's
;; folder, and its references to ../tools would read as leaving the workspace.
(defun litmus-suite-root (dir)
  "The outermost folder at or above DIR with a litmus.config.json, up to the repository root."
  (let ((repo (locate-dominating-file dir ".git"))
        (d (file-name-as-directory (expand-file-name dir)))
        (root nil)
        (done nil))
    (while (not done)
      (when (file-exists-p (expand-file-name "litmus.config.json" d)) (setq root d))
      (let ((parent (file-name-directory (directory-file-name d))))
        (if (or (and repo (file-equal-p d repo)) (null parent) (equal parent d))
            (setq done t)
          (setq d parent))))
    (or root repo)))

(defun litmus-project-find (dir)
  "The LITMUS suite that holds DIR, as a transient project."
  (let ((root (litmus-suite-root dir)))
    (and root (eq major-mode 'litmus-json-mode) (cons 'transient (expand-file-name root)))))
(add-hook 'project-find-functions #'litmus-project-find)

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(litmus-json-mode . ("litmus-language-server" "--stdio"))))

(add-hook 'litmus-json-mode-hook #'eglot-ensure)

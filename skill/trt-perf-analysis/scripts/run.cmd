@echo off
rem run.cmd - run trtperf from this skill on Windows, with no setup.
rem
rem It runs the first of:
rem   1. %TRTPERF%                               an explicit path to the executable
rem   2. <skill>\bin\windows-<arch>\trtperf.exe  the binary shipped in the skill
rem   3. trtperf on PATH
rem   4. a build of the trtperf source (the checkout this skill sits in, or
rem      %TRTPERF_SRC%) with the Go toolchain, cached in %LOCALAPPDATA%\trtperf
rem and passes the arguments and the exit code through unchanged.
rem When none is available it prints one error line and exits 127.
rem
rem Each command whose exit code matters is followed by its own
rem "exit /b %ERRORLEVEL%" line: inside a ( ... ) block %ERRORLEVEL% would be
rem expanded before the command ran.
setlocal
set "RUN_SKILL=%~dp0.."
rem Invoked through a symlink (mklink LINK run.cmd), %~dp0 is the link's
rem folder: when no SKILL.md is there, follow the link ("dir /al" prints
rem its target in brackets; a relative target is relative to the link).
if exist "%RUN_SKILL%\SKILL.md" goto skill_found
set "RUN_LINK="
for /f "tokens=2 delims=[]" %%T in ('dir /al "%~f0" 2^>nul ^| findstr /c:"<SYMLINK"') do set "RUN_LINK=%%T"
if not defined RUN_LINK goto skill_found
pushd "%~dp0"
for %%I in ("%RUN_LINK%") do set "RUN_SKILL=%%~dpI.."
popd
:skill_found

rem 1. An explicit executable wins; a wrong one is an error, not a fallback.
if not defined TRTPERF goto shipped
if exist "%TRTPERF%\*" goto bad_trtperf
if not exist "%TRTPERF%" goto bad_trtperf
"%TRTPERF%" %*
exit /b %ERRORLEVEL%
:bad_trtperf
>&2 echo run.cmd: error: TRTPERF=%TRTPERF% is not an executable file; set TRTPERF to trtperf.exe, or clear it to use the one in the skill
exit /b 127

rem 2. The binary shipped in the skill for this CPU (a 32-bit shell on a
rem 64-bit Windows sees the real CPU in PROCESSOR_ARCHITEW6432).
:shipped
set "RUN_ARCH=%PROCESSOR_ARCHITECTURE%"
if defined PROCESSOR_ARCHITEW6432 set "RUN_ARCH=%PROCESSOR_ARCHITEW6432%"
if /i "%RUN_ARCH%"=="AMD64" set "RUN_ARCH=amd64"
if /i "%RUN_ARCH%"=="ARM64" set "RUN_ARCH=arm64"
set "RUN_BIN=%RUN_SKILL%\bin\windows-%RUN_ARCH%\trtperf.exe"
if not exist "%RUN_BIN%" goto onpath
"%RUN_BIN%" %*
exit /b %ERRORLEVEL%

rem 3. An installed trtperf. %%~$PATH:I searches PATH like the shell does
rem (and, unlike "where", behaves the same on every Windows and under wine).
:onpath
set "RUN_PATHBIN="
for %%I in (trtperf.exe) do set "RUN_PATHBIN=%%~$PATH:I"
if not defined RUN_PATHBIN goto source
"%RUN_PATHBIN%" %*
exit /b %ERRORLEVEL%

rem 4. Build from source: %TRTPERF_SRC%, or the checkout holding this skill
rem (<src>\skill\trt-perf-analysis).
:source
set "RUN_SRC="
if defined TRTPERF_SRC goto src_env
call :is_src "%RUN_SKILL%\..\.."
if not errorlevel 1 set "RUN_SRC=%RUN_SKILL%\..\.."
goto build
:src_env
call :is_src "%TRTPERF_SRC%"
if errorlevel 1 goto bad_src
set "RUN_SRC=%TRTPERF_SRC%"

:build
if not defined RUN_SRC goto notfound
rem go.exe, or a go.cmd/go.bat shim (version managers install those).
set "RUN_GO="
for %%I in (go.exe go.cmd go.bat) do if not defined RUN_GO set "RUN_GO=%%~$PATH:I"
if not defined RUN_GO goto nogo
set "RUN_CACHE=%LOCALAPPDATA%"
if not defined RUN_CACHE set "RUN_CACHE=%TEMP%"
set "RUN_CACHE=%RUN_CACHE%\trtperf"
if not exist "%RUN_CACHE%\" mkdir "%RUN_CACHE%"
set "RUN_OUT=%RUN_CACHE%\trtperf-windows-%RUN_ARCH%.exe"
rem go build relinks only when the source changed; its messages go to stderr.
pushd "%RUN_SRC%"
rem "call" so that a go.cmd/go.bat shim returns here too.
call "%RUN_GO%" build -o "%RUN_OUT%" ./cmd/trtperf 1>&2
if errorlevel 1 goto build_failed
popd
"%RUN_OUT%" %*
exit /b %ERRORLEVEL%

:build_failed
popd
>&2 echo run.cmd: error: building trtperf from %RUN_SRC% failed (see above); fix the build or set TRTPERF to trtperf.exe
exit /b 127

:bad_src
>&2 echo run.cmd: error: TRTPERF_SRC=%TRTPERF_SRC% is not a trtperf source checkout (no go.mod of github.com/trtperf/trtperf with cmd\trtperf); fix or clear it
exit /b 127

:nogo
>&2 echo run.cmd: error: trtperf not found: no %RUN_BIN%, no trtperf on PATH, and no Go toolchain to build the source in %RUN_SRC%; install Go (https://go.dev/dl/), or reinstall the skill with 'trtperf skill install DIR', or set TRTPERF=C:\path\to\trtperf.exe
exit /b 127

:notfound
>&2 echo run.cmd: error: trtperf not found: no %RUN_BIN% and no trtperf on PATH; reinstall the skill with binaries ('trtperf skill install DIR'), install trtperf ('go install github.com/trtperf/trtperf/cmd/trtperf@latest'), or set TRTPERF=C:\path\to\trtperf.exe
exit /b 127

rem is_src DIR: errorlevel 0 when DIR is a trtperf source checkout.
:is_src
if not exist "%~1\go.mod" exit /b 1
if not exist "%~1\cmd\trtperf\" exit /b 1
findstr /b /x /c:"module github.com/trtperf/trtperf" "%~1\go.mod" >nul 2>nul
exit /b %ERRORLEVEL%

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/files.hpp"
#include "cli/weight_files.hpp"
#include "core/torch/init.hpp"

using namespace embdemo;

namespace {

DemoRequest file_request(const std::string& path, TokenIds ids) {
    DemoRequest request;
    request.ids = std::move(ids);
    request.origin.kind = WeightOrigin::Kind::file;
    request.origin.detail = path;
    return request;
}

// A fresh empty directory, removed with its files at the end of the test.
struct TemporaryDirectory {
    std::string path;
    TemporaryDirectory() {
        char name[] = "/tmp/embdemo-test-XXXXXX";
        REQUIRE(::mkdtemp(name) != nullptr);
        path = name;
    }
    ~TemporaryDirectory() {
        if (DIR* dir = ::opendir(path.c_str())) {
            while (const dirent* entry = ::readdir(dir)) {
                const std::string name = entry->d_name;
                if (name != "." && name != "..") ::unlink((path + "/" + name).c_str());
            }
            ::closedir(dir);
        }
        ::rmdir(path.c_str());
    }
    std::size_t entries() const {
        std::size_t count = 0;
        DIR* dir = ::opendir(path.c_str());
        while (const dirent* entry = ::readdir(dir)) count += entry->d_name[0] != '.';
        ::closedir(dir);
        return count;
    }
    // Hidden ones too: the temporary files are named ".embdemo-XXXXXX".
    std::size_t all_entries() const {
        std::size_t count = 0;
        DIR* dir = ::opendir(path.c_str());
        while (const dirent* entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            count += name != "." && name != "..";
        }
        ::closedir(dir);
        return count;
    }
};

}  // namespace

TEST_CASE("load_weight_file takes vocab and dim from the file") {
    DemoRequest request = file_request(EMBDEMO_TEST_DATA_DIR "/weights/notebook_f32.npy", {2, 3, 1});
    const auto weight = load_weight_file(request);
    REQUIRE_MESSAGE(weight, weight.error());
    CHECK(request.vocab_size == 4);
    CHECK(request.dim == 5);
    CHECK(weight.value() == torch_embedding_weight(4, 5, 123));
}

TEST_CASE("check_weight_shape requires --vocab, --dim and the ids to fit the file") {
    DemoRequest request = file_request("w.npy", {2, 9});
    CHECK(check_weight_shape(request, 4, 5).value() ==
          "holds 4 x 5, so id 9 (item 2 of --ids) has no row (allowed: ids 0 to 3)");
    request.ids = {1};
    CHECK_FALSE(check_weight_shape(request, 4, 5));
    request.vocab_size = 3;
    CHECK(check_weight_shape(request, 4, 5).value() ==
          "holds 4 x 5 but --vocab is 3 (allowed: leave --vocab out, or --vocab 4)");
    request.vocab_size = 4;
    request.dim = 6;
    CHECK(check_weight_shape(request, 4, 5).value() == "holds 4 x 5 but --dim is 6 (allowed: leave --dim out, or --dim 5)");
    request.vocab_size = 0;
    request.dim = 0;
    CHECK(check_weight_shape(request, 100000000, 768).value().find("holds 100000000 x 768: the embedding matrix") == 0);
}

TEST_CASE("load_weight_file names the file and the problem") {
    DemoRequest missing = file_request("/nonexistent/w.npy", {0});
    CHECK(load_weight_file(missing).error() == "--weights \"/nonexistent/w.npy\": cannot open: No such file or directory");
    DemoRequest directory = file_request("/tmp", {0});
    CHECK(load_weight_file(directory).error() == "--weights \"/tmp\": is a directory (allowed: a file)");
    DemoRequest text = file_request(EMBDEMO_TEST_DATA_DIR "/bad/weights.txt", {0});
    CHECK(load_weight_file(text).error().find("is neither a .npy file") != std::string::npos);
}

TEST_CASE("write_file_atomically replaces the file and leaves no temporary file behind") {
    TemporaryDirectory dir;
    const std::string path = dir.path + "/e.npy";
    CHECK(write_file_atomically(path, "first") == "");
    CHECK(write_file_atomically(path, "second") == "");
    CHECK(read_small_file(path, 100).value() == "second");
    CHECK(dir.entries() == 1);
    CHECK(read_small_file(path, 3).error() == "is 6 bytes (allowed: at most 3 bytes)");
}

TEST_CASE("write_file_atomically reports a failure and cleans up") {
    CHECK(write_file_atomically("/nonexistent/dir/e.npy", "x") ==
          "is in the directory \"/nonexistent/dir\", which does not exist (allowed: a file in an existing directory)");
    if (::access("/dev/full", W_OK) == 0 && ::geteuid() != 0) {
        // A directory we cannot write to gives the same clean failure.
        CHECK_FALSE(write_file_atomically("/e.npy", "x").empty());
    }
}

TEST_CASE("read_small_file refuses a file larger than its cap by its size, with grouped numbers") {
    TemporaryDirectory dir;
    const std::string path = dir.path + "/labels.txt";
    std::ofstream(path) << "x";
    REQUIRE(::truncate(path.c_str(), std::int64_t{1} << 30) == 0);  // sparse: no disk space used
    CHECK(read_small_file(path, std::uint64_t{1} << 28).error() ==
          "is 1,073,741,824 bytes (allowed: at most 268,435,456 bytes)");
}

TEST_CASE("make_directory creates a directory once and refuses a file in the way") {
    TemporaryDirectory dir;
    const std::string sub = dir.path + "/projector";
    {
        FileTransaction transaction;
        CHECK(transaction.make_directory(sub) == "");
        CHECK(transaction.make_directory(sub) == "");
        CHECK(transaction.commit() == "");
    }
    CHECK(dir.entries() == 1);
    ::rmdir(sub.c_str());
    std::ofstream(sub) << "x";
    FileTransaction transaction;
    CHECK(transaction.make_directory(sub) == "exists and is not a directory");
}

TEST_CASE("a transaction that is not committed leaves nothing behind") {
    TemporaryDirectory dir;
    const std::string sub = dir.path + "/projector";
    std::ofstream(dir.path + "/e.npy") << "old";
    {
        FileTransaction transaction;
        REQUIRE(transaction.make_directory(sub) == "");
        REQUIRE(transaction.begin_file(sub + "/vectors.tsv") == "");
        REQUIRE(transaction.write("new") == "");
        REQUIRE(transaction.end_file() == "");
        REQUIRE(transaction.begin_file(dir.path + "/e.npy") == "");
        REQUIRE(transaction.write("new") == "");
    }
    CHECK(dir.all_entries() == 1);
    CHECK(read_small_file(dir.path + "/e.npy", 100).value() == "old");
}

TEST_CASE("a commit that fails half way puts back the files it already replaced") {
    TemporaryDirectory dir;
    const std::string vectors = dir.path + "/vectors.tsv";
    const std::string metadata = dir.path + "/metadata.tsv";
    std::ofstream(vectors) << "old vectors";
    {
        FileTransaction transaction;
        for (const std::string& path : {vectors, metadata}) {
            REQUIRE(transaction.begin_file(path) == "");
            REQUIRE(transaction.write("new") == "");
            REQUIRE(transaction.end_file() == "");
        }
        REQUIRE(::mkdir(metadata.c_str(), 0700) == 0);  // now the second rename cannot succeed
        const std::string problem = transaction.commit();
        CHECK(problem.find("cannot rename the temporary file to it: ") == 0);
        CHECK(transaction.failed_file() == 1);
        CHECK(read_small_file(vectors, 100).value() == "old vectors");
    }
    ::rmdir(metadata.c_str());
    CHECK(dir.all_entries() == 1);
}

TEST_CASE("outputs refuse what is not a regular file and leave it in place") {
    TemporaryDirectory dir;
    const std::string pipe = dir.path + "/pipe.npy";
    REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
    CHECK(check_output_file(pipe) ==
          "exists and is a named pipe (allowed: a regular file, which is replaced, or a new name)");
    CHECK(write_file_atomically(pipe, "x") == *check_output_file(pipe));
    struct stat info {};
    REQUIRE(::stat(pipe.c_str(), &info) == 0);
    CHECK(S_ISFIFO(info.st_mode));
    CHECK(check_output_file(dir.path)->find("exists and is a directory") == 0);
    CHECK_FALSE(check_output_file(dir.path + "/new.npy"));
    CHECK_FALSE(check_output_directory(dir.path));
    CHECK(check_output_directory(pipe) == "exists and is a named pipe (allowed: a directory, or a new name)");
}

TEST_CASE("open_for_reading opens a named pipe without blocking and refuses it") {
    TemporaryDirectory dir;
    const std::string pipe = dir.path + "/pipe";
    REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
    // No writer: a blocking open() would never return.
    CHECK(open_for_reading(pipe).error() == "is not a regular file (allowed: a file)");
    CHECK(read_small_file(pipe, 100).error() == "is not a regular file (allowed: a file)");
    const std::string path = dir.path + "/e.csv";
    std::ofstream(path) << "1,2\n";
    auto file = open_for_reading(path);
    REQUIRE(file);
    CHECK(file.value().size() == 4);
    std::string line;
    std::getline(file.value().stream(), line);
    CHECK(line == "1,2");
}

TEST_CASE("an output through a dangling symbolic link is written to the file the link names") {
    TemporaryDirectory dir;
    const std::string link = dir.path + "/link.npy";
    REQUIRE(::symlink("target.npy", link.c_str()) == 0);
    CHECK(write_file_atomically(link, "new") == "");
    struct stat info {};
    REQUIRE(::lstat(link.c_str(), &info) == 0);
    CHECK(S_ISLNK(info.st_mode));
    CHECK(read_small_file(dir.path + "/target.npy", 100).value() == "new");
}

TEST_CASE("outputs refuse looping links, links where they are not followed, and long names") {
    TemporaryDirectory dir;
    const std::string loop = dir.path + "/loop.npy";
    REQUIRE(::symlink("loop.npy", loop.c_str()) == 0);
    CHECK(check_output_file(loop)->find("is a symbolic link that loops") == 0);
    CHECK(write_file_atomically(loop, "x").find("is a symbolic link that loops") == 0);
    const std::string planted = dir.path + "/vectors.tsv";
    REQUIRE(::symlink("elsewhere.tsv", planted.c_str()) == 0);
    CHECK(check_output_file(planted, Links::refuse)->find("exists and is a symbolic link") == 0);
    CHECK_FALSE(check_output_file(planted, Links::follow));
    CHECK(check_output_file(dir.path + "/" + std::string(256, 'w'))->find("is too long") == 0);
    CHECK_FALSE(check_output_file(dir.path + "/" + std::string(255, 'w')));
    CHECK(check_output_directory(loop) == "is a symbolic link that loops (allowed: a directory, or a new name)");
    CHECK(check_output_directory(planted)->find("is a symbolic link to a name that does not exist") == 0);
    CHECK(check_output_directory(dir.path + "/missing/p")->find("which does not exist") != std::string::npos);
}

TEST_CASE("file_id tells two names of one file from two files") {
    TemporaryDirectory dir;
    const std::string a = dir.path + "/a", b = dir.path + "/b", c = dir.path + "/c";
    std::ofstream(a) << "x";
    std::ofstream(c) << "x";
    REQUIRE(::link(a.c_str(), b.c_str()) == 0);
    CHECK(file_id(a) == file_id(b));
    CHECK_FALSE(file_id(a) == file_id(c));
    CHECK_FALSE(file_id(dir.path + "/missing"));
}
